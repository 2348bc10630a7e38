import { resolve } from 'node:path';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { requireValid } from '../../service/invariant-service.ts';
import { loadConfig } from '../../store/config.ts';
import { repoPathOf } from '../../service/repo-path.ts';
import { namesFolder } from '../../service/folder-project.ts';
import { projectsOfPath, readProjects, repositoryTop } from '../../store/projects.ts';
import { defineCommand } from '../command.ts';
import { type WhichRow, whichJson, whichText } from '../../present/which.ts';
import { emit } from '../render.ts';

interface WhichArgs {
  paths?: string[];
}

export default defineCommand<WhichArgs>({
  builder: (y) => y.positional('paths', { type: 'string', array: true, describe: 'files or folders, relative to the current folder' }),
  async run(argv, ctx) {
    const service = await ctx.invariants();
    const top = repositoryTop(service.root);
    const config = await loadConfig(service.source);
    const projects = await readProjects(service.source);
    requireValid({ diagnostics: projects.diagnostics } as never, "read the projects' project.yaml");
    const rows: WhichRow[] = [];
    for (const p of argv.paths ?? []) {
      // An empty argument (an unset shell variable) names no path; read as `.`, it would answer for the current folder.
      if (p.trim() === '')
        throw new UsageError('an empty path was given', 'Name a file or folder, such as src/index.ts or services/billing.');
      const abs = resolve(ctx.io.cwd, p);
      const rel = repoPathOf(top, abs);
      if (rel === undefined)
        throw new UsageError(
          `${escapeUnsafe(p)} is outside the repository (${top})`,
          'Project paths are relative to the top of the repository; name a path inside it.',
        );
      // A trailing "/" says a folder, there or not yet; else what is on disk does (as the MCP tools' `path` reads it).
      const isDir = namesFolder(p, abs);
      rows.push({ path: rel === '' ? '.' : rel, projects: await projectsOfPath(projects.meta, top, rel, isDir) });
    }
    const overlapping = rows.filter((r) => r.projects.length > 1);
    const refused = overlapping.length > 0 && !config.projects.allow_overlap;
    // Refused under json or yaml, the error document is the one document on stdout: the paths go into its detail.
    if (!refused || ctx.format === 'text') emit(ctx, whichJson(rows), () => whichText(ctx.style, rows));
    if (refused) {
      const first = overlapping[0]!;
      const more = overlapping.length - 1;
      throw new UsageError(
        // On one line, as every path an error quotes: a line break in a file's name would forge a line of the report.
        `${escapeUnsafe(first.path)} is in ${first.projects.length} projects (${first.projects.join(', ')})${more > 0 ? ` (and ${more} more path${more > 1 ? 's' : ''})` : ''}`,
        "Make the projects' paths disjoint, or set projects.allow_overlap: true in config.yaml.",
        { paths: overlapping },
      );
    }
    if (rows.some((r) => r.projects.length === 0)) return EXIT_CODES.checkFailed;
    return EXIT_CODES.ok;
  },
});
