import type { Argv } from 'yargs';
import { conflictingOptions, missingOption } from '../core/errors.ts';
import type { InvariantService, ScopeInput } from '../service/invariant-service.ts';
import type { CliContext } from './context.ts';

export interface ScopeArgs {
  global?: boolean;
  project?: string;
  plan?: string;
  action?: string;
}

export function scopeOptions(y: Argv, verb: string): Argv {
  return y
    .option('global', { type: 'boolean', describe: `${verb} the global scope` })
    .option('project', { type: 'string', describe: `${verb} project P's scope`, requiresArg: true })
    .option('plan', { type: 'string', describe: `${verb} plan ID's scope (an id or a unique prefix of one)`, requiresArg: true })
    .option('action', { type: 'string', describe: `${verb} action template NS/NAME`, requiresArg: true });
}

/** The one scope the flags name; `required` refuses none. Two or more is always a usage error. */
export function scopeFromArgs(argv: ScopeArgs, required: boolean, command = ''): ScopeInput | undefined {
  const given: ScopeInput[] = [];
  const names: string[] = [];
  if (argv.global) {
    given.push({ global: true });
    names.push('--global');
  }
  for (const key of ['project', 'plan', 'action'] as const) {
    const value = argv[key];
    if (value === undefined) continue;
    given.push({ [key]: String(value) } as ScopeInput);
    names.push(`--${key}`);
  }
  if (given.length > 1) {
    throw conflictingOptions(
      // A command that takes none too (`invariant list`) is asked for at most one, as MCP's list_invariants says it.
      `give ${required ? 'exactly' : 'at most'} one scope, not ${names.join(' and ')}`,
      `Choose one of --global, --project P, --plan ID, --action NS/NAME${required ? '' : ', or none'}.`,
      names.map((n) => n.slice(2)),
    );
  }
  if (given.length === 0 && required) {
    throw missingOption('no scope given', 'Choose one of --global, --project P, --plan ID, --action NS/NAME.', command, [
      'global',
      'project',
      'plan',
      'action',
    ]);
  }
  return given[0];
}

/**
 * The project whose paths (project.yaml) hold the current folder, when
 * exactly one does (docs/export.md, "Projects and their paths"); said on
 * stderr, since the command then acts on a project nobody named. Commands
 * call it only when no scope was given.
 */
export async function inferProject(ctx: CliContext, service: InvariantService): Promise<string | undefined> {
  const { readProjects, repoRelative, repositoryTop } = await import('../store/projects.ts');
  const { requireValid } = await import('../service/invariant-service.ts');
  const top = repositoryTop(service.root);
  const rel = repoRelative(top, ctx.io.cwd);
  if (rel === undefined) return undefined;
  const projects = await readProjects(service.source);
  // Before the count: an invalid project.yaml may be the one that holds this folder, even when it is the only one.
  requireValid({ diagnostics: projects.diagnostics } as never, "read the projects' project.yaml");
  if (projects.meta.size === 0) return undefined;
  // Only a project that holds every file of the folder (a `DIR/**` over it) is the folder's: one of file globs
  // (`**/*.ts`) holds some of its files anywhere, and would take a rule meant for the whole folder, or the top.
  const { projectsOfFolder } = await import('../service/folder-project.ts');
  const { whole: names, partly } = await projectsOfFolder(projects.meta, top, rel);
  const here = rel === '' ? 'the top of the repository' : rel;
  if (names.length === 1) {
    ctx.notice(`project ${names[0]} (from the current folder, ${here}, which its paths hold; --project P to choose another)`);
    return names[0];
  }
  if (names.length > 1)
    ctx.notice(`the current folder, ${here}, is in the paths of projects ${names.join(', ')}; no project inferred (give --project P)`);
  else if (partly.length > 0)
    ctx.notice(
      `the current folder, ${here}, holds some files of project${partly.length === 1 ? '' : 's'} ${partly.join(', ')} (${partly
        .flatMap((n) => projects.meta.get(n)?.paths ?? [])
        .join(', ')}), not all; no project inferred (give --project P)`,
    );
  return undefined;
}
