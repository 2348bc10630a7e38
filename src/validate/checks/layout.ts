import type { Diagnostic } from '../../core/diagnostics.ts';
import {
  classifyPath,
  inHiddenFolder,
  isHiddenName,
  isKnownFolder,
  isTemporaryName,
  type PathKind,
  temporaryParts,
} from '../../core/layout.ts';
import { nameProblem, ulidProblem } from '../../core/names.ts';
import { badName, isRequiredFolder, isScopeFolder, misnamedYaml, yamlNameMeant } from '../../store/read-plan.ts';
import type { TreeEntry } from '../../store/tree-source.ts';
import { problem } from './problem.ts';
import { docsRef } from '../../core/docs-link.ts';

/** Kinds of path whose entries the readers report themselves when they are not files. */
const READ_KINDS = new Set<PathKind['kind']>([
  'invariant',
  'plan',
  'action-meta',
  'project-meta',
  'config',
  'extends-lock',
  'bad-id',
  'record',
  'waiver',
]);

/**
 * Folders and files that fit no shape of the layout, bad names, plan folders without plan.yaml, links, temporaries.
 * Each finding is on the path looked at (or, for a plan folder, its plan.yaml, which a change can touch only when
 * the folder holds a touched path), and paths under a reported folder are skipped: with `touches`, only touched
 * paths (a touched path's folders are touched too) are looked at, and every finding on a touched path is still made.
 */
export function checkLayout(
  entries: readonly TreeEntry[],
  kinds: readonly PathKind[],
  touches?: (path: string) => boolean,
  temporaryWriter?: (path: string) => 'running' | 'gone' | 'elsewhere',
): Diagnostic[] {
  const fixHint = (path: string, removes: string) => temporaryHint(path, temporaryWriter?.(path) ?? 'gone', removes);
  const out: Diagnostic[] = [];
  const reported: string[] = [];
  const under = (p: string) => reported.some((r) => p.startsWith(`${r}/`));
  // Only the plan.yaml files are looked up (for plan-missing): a set of them, not of every path, made when first needed.
  let planFiles: Set<string> | undefined;
  const hasPlanFile = (path: string) => {
    if (planFiles === undefined) {
      planFiles = new Set();
      for (const e of entries) if (e.path.endsWith('/plan.yaml')) planFiles.add(e.path);
    }
    return planFiles.has(path);
  };
  let paths: Set<string> | undefined;
  const exists = (path: string) => (paths ??= new Set(entries.map((e) => e.path))).has(path);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (touches && !touches(e.path)) continue;
    if (under(e.path)) continue;
    // A file in the place of a folder the readers need (a scope's, a plan's records): the shared reader reports it.
    if (e.type !== 'dir' && e.type !== 'symlink' && isRequiredFolder(e.path, e.type)) continue;
    if (e.type === 'dir') {
      if (e.unreadable !== undefined && !inHiddenFolder(e.path)) {
        // The reader reports it (file-unreadable); what it holds is unknown, so nothing is said of it here.
        reported.push(e.path);
        continue;
      }
      if (READ_KINDS.has(kinds[i]!.kind)) {
        // A folder where a file must be (every such path ends in .yaml): the reader reports it (not-a-file); skip what is inside.
        reported.push(e.path);
        continue;
      }
      if (kinds[i]!.kind === 'lock') {
        // A folder where a lock goes: checkLocks reports it; what is inside is never read.
        reported.push(e.path);
        continue;
      }
      if (!isKnownFolder(e.path)) {
        out.push(folderProblem(e.path, fixHint));
        reported.push(e.path);
        continue;
      }
      const parts = e.path.split('/');
      if (parts[0] === 'plans' && parts.length === 2 && !hasPlanFile(`${e.path}/plan.yaml`)) {
        out.push(
          problem(
            'plan-missing',
            'error',
            `${e.path}/plan.yaml`,
            `plan folder ${e.path}/ has no plan.yaml`,
            'Restore plan.yaml (git checkout, or `agents plan use`), or remove the folder if the plan is gone.',
          ),
        );
      }
      continue;
    }
    // A linked scope folder: the shared reader reports it.
    if (e.type === 'symlink' && isScopeFolder(e.path)) continue;
    const kind = kinds[i]!;
    switch (kind.kind) {
      case 'unknown': {
        const meant = e.type === 'file' ? misnamed(e.path, exists) : undefined;
        // A hidden link is an editor's lock (Emacs's `.#NAME.yaml`, a link to nothing while a file is being edited):
        // never followed nor read, so warned of as any hidden file.
        if (e.type === 'symlink' && !isHiddenName(e.path.slice(e.path.lastIndexOf('/') + 1))) out.push(linkProblem(e.path));
        else if (meant !== undefined) out.push(misnamedYaml(e.path, meant));
        else
          out.push(
            problem(
              'unknown-path',
              'warning',
              e.path,
              `${e.path} fits no place in the store layout and is never read`,
              `Move it out of the store, or see ${docsRef('store-format.md')} for where files go.`,
            ),
          );
        break;
      }
      case 'bad-name':
        out.push(badName(e.path, kind.problem));
        break;
      case 'temporary':
        out.push(
          problem(
            'temporary-file',
            'warning',
            e.path,
            `${e.path} is a temporary file left by an interrupted write`,
            fixHint(e.path, 'Run `agents validate --fix` to remove it (it never holds the only copy of anything).'),
          ),
        );
        break;
      case 'schema':
      case 'actor':
      case 'keep':
        if (e.type === 'symlink') out.push(linkProblem(e.path));
        break;
    }
  }
  return out;
}

/**
 * What `--fix` does with the temporary at `path`, whose writer is in `state`: `removes` when it is gone; kept while
 * its writer runs, and kept for good when that writer is of another host or container (fix.ts removeTemporary).
 */
function temporaryHint(path: string, state: 'running' | 'gone' | 'elsewhere', removes: string): string {
  const pid = temporaryParts(path.slice(path.lastIndexOf('/') + 1))?.pid;
  if (state === 'running')
    return `Its writer, process ${pid}, is still running: \`agents validate --fix\` keeps it until that process has ended.`;
  if (state === 'elsewhere')
    return `Its writer, process ${pid}, runs on another host or in another container (pid namespace), where whether it still runs cannot be told here, so \`agents validate --fix\` keeps it: delete it by hand once no writer runs there.`;
  return removes;
}

/** The kinds of file a hand-written `.yml` may have been meant as: each is read when it ends in `.yaml` (a badly named one is not). */
const MEANT_KINDS = new Set<PathKind['kind']>([...READ_KINDS].filter((k) => k !== 'bad-id'));

/**
 * The path a file with a YAML name other than `.yaml` (`.yml`, `.YAML`) was
 * meant to have, when a file of that name would be read there and none is:
 * an invariant, a plan or a record written by hand and never read.
 */
function misnamed(path: string, exists: (path: string) => boolean): string | undefined {
  const meant = yamlNameMeant(path);
  if (meant === undefined) return undefined;
  return MEANT_KINDS.has(classifyPath(meant).kind) && !exists(meant) ? meant : undefined;
}

function linkProblem(path: string): Diagnostic {
  return problem(
    'symlink',
    'error',
    path,
    `${path} is a symbolic link; links are never followed inside a store`,
    'Replace the link with the file itself, or remove it.',
  );
}

/** A folder that is not part of the layout: a broken name where a name goes, else an unknown path. */
function folderProblem(path: string, fixHint: (path: string, removes: string) => string): Diagnostic {
  const [top, a, b] = path.split('/');
  const depth = path.split('/').length;
  let why: string | null = null;
  // A new project's folder is written whole beside its place, then renamed into it (`project add`, `import`).
  if (top === 'projects' && depth === 2 && isTemporaryName(a!)) {
    return problem(
      'temporary-file',
      'warning',
      path,
      `${path}/ is a project folder left by an interrupted \`project add\`, \`import\` or \`project remove\` (it is renamed into place only when complete, and out of it when removed)`,
      fixHint(path, 'Run `agents validate --fix` to remove it; it is no project.'),
    );
  }
  if (top === 'projects' && depth === 2) why = nameProblem(a!, 'project');
  else if (top === 'actions' && depth === 2) why = nameProblem(a!, 'action namespace');
  else if (top === 'actions' && depth === 3) why = nameProblem(b!, 'action name');
  else if (top === 'plans' && depth === 2 && isTemporaryName(a!)) {
    return problem(
      'temporary-file',
      'warning',
      path,
      `${path}/ is a plan folder left by an interrupted \`plan use\` or \`plan remove\` (it is renamed into place only when complete, and out of it when removed)`,
      fixHint(path, 'Run `agents validate --fix` to remove it; it is no plan.'),
    );
  } else if (top === 'plans' && depth === 2) why = ulidProblem(a!, 'plan folder');
  if (why) return badName(path, why);
  return problem(
    'unknown-path',
    'warning',
    path,
    `folder ${path}/ fits no place in the store layout and is never read`,
    `Move it out of the store, or see ${docsRef('store-format.md')} for where folders go.`,
  );
}
