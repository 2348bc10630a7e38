import type { Diagnostic } from '../core/diagnostics.ts';
import { badId, classifyPath } from '../core/layout.ts';
import { parseWaiver } from '../core/waiver-file.ts';
import { waiverFolder, type ScopedWaiver, type WaiverScope } from '../core/waivers.ts';
import { readFailure, strayFinding } from './read-plan.ts';
import { filesBelowUnknownFolders } from './unplaced.ts';
import type { TreeSource } from './tree-source.ts';
import { parseYamlDocument } from './yaml-document.ts';

/**
 * Reads the waivers of the given plans and projects (`<folder>/waivers/`), in
 * id (creation) order. Invalid files become diagnostics, never exceptions.
 */
export async function readWaivers(
  source: TreeSource,
  scopes: readonly WaiverScope[],
): Promise<{ waivers: ScopedWaiver[]; diagnostics: Diagnostic[] }> {
  const waivers: ScopedWaiver[] = [];
  const diagnostics: Diagnostic[] = [];
  const jobs: { path: string; scope: WaiverScope; id: string }[] = [];
  for (const scope of scopes) {
    const listed = await source.list(waiverFolder(scope), { recursive: false });
    const paths = new Set(listed.map((e) => e.path));
    for (const entry of [...listed, ...(await filesBelowUnknownFolders(source, listed))]) {
      // A waiver written as `.yml`, or put in a sub-folder, is never read: said, as validate says it.
      const stray = strayFinding(
        entry,
        classifyPath,
        (k) => k.kind === 'waiver',
        () => paths,
      );
      if (stray) diagnostics.push(stray);
      if (!entry.path.endsWith('.yaml')) continue;
      const c = classifyPath(entry.path);
      if (c.kind === 'bad-id') {
        diagnostics.push(badId(entry.path, c));
        continue;
      }
      if (c.kind !== 'waiver') continue;
      if (entry.type !== 'file') {
        diagnostics.push(
          readFailure(
            entry.path,
            entry.type === 'symlink'
              ? { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' }
              : { ok: false, code: 'not-a-file', message: 'is not a regular file' },
          ),
        );
        continue;
      }
      jobs.push({ path: entry.path, scope, id: c.id });
    }
  }
  const contents = await source.read(jobs.map((j) => j.path));
  for (const job of jobs) {
    const r = contents.get(job.path);
    if (!r) continue;
    if (!r.ok) {
      diagnostics.push(readFailure(job.path, r));
      continue;
    }
    const p = await parseYamlDocument((syntax) => parseWaiver(job.path, r.bytes, job.id, syntax));
    diagnostics.push(...p.diagnostics);
    if (p.value) waivers.push({ ...p.value, scope: job.scope, path: job.path });
  }
  waivers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { waivers, diagnostics };
}
