import { isName, isUlid, nameProblem, ulidProblem } from './names.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { Scope } from './model.ts';
import type { WaiverScope } from './waivers.ts';

/** What a store-relative path is, by its shape alone (docs/store-format.md). */
export type PathKind =
  | { kind: 'config' }
  /** `extends.lock.yaml`: the pins of the policy sources (docs/extends.md). */
  | { kind: 'extends-lock' }
  | { kind: 'schema' }
  | { kind: 'actor' }
  | { kind: 'invariant'; scope: Scope; id: string }
  | { kind: 'plan'; plan: string }
  | { kind: 'action-meta'; ns: string; name: string }
  /** `projects/<name>/project.yaml`: description and paths. */
  | { kind: 'project-meta'; project: string }
  | { kind: 'record'; plan: string; record: RecordKind; id: string }
  /** A waiver of a plan or of a project (`<scope folder>/waivers/<ULID>.yaml`; docs/store-format.md). */
  | { kind: 'waiver'; scope: WaiverScope; id: string }
  | { kind: 'temporary' }
  | { kind: 'lock' }
  /** `.gitkeep`, which keeps an empty scope folder in git, and `.gitattributes`, which says its line ends: git's files. */
  | { kind: 'keep' }
  /** A `*.yaml` where an invariant, a record or a waiver must be (`of`), but the name is not a ULID. */
  | { kind: 'bad-id'; of: 'invariant' | 'record' | 'waiver'; scope?: Scope; problem: string }
  /** A path inside a folder whose name breaks the name rules. */
  | { kind: 'bad-name'; problem: string }
  | { kind: 'unknown' };

export type RecordKind = 'decisions' | 'enforcement' | 'violations';

/** The folder of a plan's or a project's waivers. */
export const WAIVERS = 'waivers';

/** The store's own `.gitattributes`, which `agents init` writes: git keeps the store's files LF (docs/adr/0606). */
export const GIT_ATTRIBUTES = '.gitattributes';

export const TEMP_SUFFIX = '.tmp';
export const LOCK_NAME = '.lock';

/**
 * The folder whose lock a writer of new projects' paths (`project add`, `import`) holds from comparing them with
 * every other project's to writing them: the paths of all projects must be disjoint, which no one project's lock keeps.
 */
export const PROJECTS_LOCK = 'projects';

/**
 * Whether a file name is hidden: never one of the store's files unless the tool's own (lock, temporaries, .gitkeep).
 * macOS's `.DS_Store` and `._NAME.yaml` (its metadata beside a file on a volume without extended attributes), an
 * editor's `.NAME.yaml.swp` or Emacs's lock `.#NAME.yaml`.
 */
export function isHiddenName(base: string): boolean {
  return base.charCodeAt(0) === 46 /* . */;
}

/**
 * Whether a store path is a hidden folder or below one: the user's, nothing in it ever read, nor taken for an
 * invariant put there (docs/store-format.md), so that a listing refused there hides nothing.
 */
export function inHiddenFolder(path: string): boolean {
  return path.split('/').some(isHiddenName);
}

/**
 * Whether a file name is one of the tool's own temporaries, `.<name>[.<writer>].<pid>.<hex>.tmp` (store/atomic-write.ts,
 * store/replace-batch.ts): only those are the tool's to remove. Any other hidden `.tmp` is the user's (a draft, an
 * editor's file) and is an unknown path, never deleted.
 */
export function isTemporaryName(base: string): boolean {
  return base.endsWith(TEMP_SUFFIX) && TEMPORARY_PARTS.test(base);
}

/**
 * Who wrote a temporary, as its name says: `<host>-<boot>-<start>`, a digest of the writer's host and pid namespace,
 * the start of the system's boot id and the process's start in ticks since boot (store/lock-owner.ts `writerMark`).
 */
export interface TemporaryWriter {
  host: string;
  boot: string;
  start: number;
}

/** What a temporary's name holds: the file it stands for, its writer's process number and, where named, who that is. */
export interface TemporaryParts {
  name: string;
  pid: number;
  /** Undefined in a name of the former form, `.<name>.<pid>.<hex>.tmp`, or where the system says no process's start. */
  writer: TemporaryWriter | undefined;
}

// The writer sits before the pid, so a name of the former form, without it, reads as one too.
const TEMPORARY_PARTS = /^\.(.+?)(?:\.([0-9a-f]{8})-([0-9a-f]{8})-(\d{1,20}))?\.(\d+)\.[0-9a-f]+\.tmp$/;

/** The parts of a temporary's name (see isTemporaryName), or undefined when `base` is not one. */
export function temporaryParts(base: string): TemporaryParts | undefined {
  const m = TEMPORARY_PARTS.exec(base);
  if (!m) return undefined;
  const writer = m[2] === undefined ? undefined : { host: m[2], boot: m[3]!, start: Number(m[4]) };
  return { name: m[1]!, pid: Number(m[5]), writer };
}

/** A writer's try at a lock: the lock's temporary, linked to `.lock` and removed at once, there for an instant. */
function isLockAttempt(base: string): boolean {
  return temporaryParts(base)?.name === LOCK_NAME;
}

/**
 * Whether `name`, a file in a locked folder, is the locking's own: the folder's `.lock` (its writer's) or a waiting
 * writer's try at it. Neither is a file of the scope, so a writer that empties or removes the folder passes over both.
 * A `.lock.break` is not among them: it outlives only a crashed writer, and is then a stale file validate reports.
 */
export function isLockName(name: string): boolean {
  return name === LOCK_NAME || isLockAttempt(name);
}

/** Whether the store path `path` is `folder`'s lock or a try at it (isLockName): a file of the folder itself, not below it. */
export function isLockOf(folder: string, path: string): boolean {
  const slash = path.lastIndexOf('/');
  return slash >= 0 && path.slice(0, slash) === folder && isLockName(path.slice(slash + 1));
}

/** The store path a temporary at `path` stands for (`global/.X.yaml.….tmp` → `global/X.yaml`), or undefined for none. */
export function temporaryTarget(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const name = temporaryParts(path.slice(slash + 1))?.name;
  return name === undefined ? undefined : `${path.slice(0, slash + 1)}${name}`;
}

/** The name of a temporary of the file `base` (see temporaryParts); `writer` is `<host>-<boot>-<start>`, when known. */
export function temporaryName(base: string, pid: number, writer: string | undefined, random: string): string {
  return `.${base}${writer === undefined ? '' : `.${writer}`}.${pid}.${random}${TEMP_SUFFIX}`;
}

const GLOBAL_SCOPE: Scope = Object.freeze({ kind: 'global' });

/**
 * What one classifier remembers between paths: scope objects are shared
 * between the paths of one folder (a store lists a folder's files together),
 * so 100,000 paths need about 1,000 scope objects, not 100,000. Nothing
 * changes a scope object once made. The memory belongs to one classifier,
 * never to the module (src/core holds no mutable module state).
 */
interface FolderMemory {
  /** The scope of the last project or plan folder classified (made only for a valid name). */
  scope: Scope;
}

/** Classifies a file path relative to the store root ("projects/myapp/01J….yaml"). */
export function classifyPath(rel: string): PathKind {
  return classify(rel, { scope: GLOBAL_SCOPE });
}

/**
 * A classifier for many paths in a row (a whole store's listing): the same
 * answers as `classifyPath`, with the scope objects of one folder shared.
 */
export function pathClassifier(): (rel: string) => PathKind {
  const memory: FolderMemory = { scope: GLOBAL_SCOPE };
  return (rel) => classify(rel, memory);
}

function classify(rel: string, memory: FolderMemory): PathKind {
  const parts = rel.split('/');
  // split gives at least one part.
  const base = parts[parts.length - 1]!;
  // The lock, and the short-lived file that serialises clearing a stale one: the files validate judges as locks. A
  // try at the lock is a temporary here, though writers pass over it with the lock (isLockName).
  if (base === LOCK_NAME || base === `${LOCK_NAME}.break`) return { kind: 'lock' };
  if (base === '.gitkeep' || base === GIT_ATTRIBUTES) return { kind: 'keep' };
  if (isTemporaryName(base)) return { kind: 'temporary' };
  // Never read; validate says it is there.
  if (isHiddenName(base)) return { kind: 'unknown' };
  const [top, a, b, c] = parts;
  switch (top) {
    case 'config.yaml':
      return parts.length === 1 ? { kind: 'config' } : { kind: 'unknown' };
    case 'extends.lock.yaml':
      return parts.length === 1 ? { kind: 'extends-lock' } : { kind: 'unknown' };
    case 'schemas':
      return { kind: 'schema' };
    case 'actors':
      return { kind: 'actor' };
    case 'global':
      if (parts.length === 2) return invariantFile(GLOBAL_SCOPE, base);
      return { kind: 'unknown' };
    case 'projects': {
      // Past the length checks the folder names are there (split never skips one).
      if (parts.length === 4 && b === WAIVERS) {
        const problem = nameProblem(a!, 'project');
        if (problem) return { kind: 'bad-name', problem };
        return waiverFile({ kind: 'project', project: a! }, base);
      }
      if (parts.length !== 3) return { kind: 'unknown' };
      const project = a!;
      // A scope is remembered only for a valid name: the same folder again needs no check.
      if (memory.scope.kind !== 'project' || memory.scope.project !== project) {
        const problem = nameProblem(project, 'project');
        if (problem) return { kind: 'bad-name', problem };
        memory.scope = { kind: 'project', project };
      }
      return base === 'project.yaml' ? { kind: 'project-meta', project } : invariantFile(memory.scope, base);
    }
    case 'actions': {
      if (parts.length !== 4) return { kind: 'unknown' };
      const problem = nameProblem(a!, 'action namespace') ?? nameProblem(b!, 'action name');
      if (problem) return { kind: 'bad-name', problem };
      if (base === 'action.yaml') return { kind: 'action-meta', ns: a!, name: b! };
      return invariantFile({ kind: 'action', ns: a!, name: b! }, base);
    }
    case 'plans': {
      if (parts.length < 3) return { kind: 'unknown' };
      const plan = a!;
      // As for projects: a plan scope is remembered only for a valid plan id.
      if (memory.scope.kind !== 'plan' || memory.scope.plan !== plan) {
        const problem = ulidProblem(plan, 'plan id');
        if (problem) return { kind: 'bad-name', problem };
        memory.scope = { kind: 'plan', plan };
      }
      if (parts.length === 3) return base === 'plan.yaml' ? { kind: 'plan', plan } : invariantFile(memory.scope, base);
      if (parts.length !== 4) return { kind: 'unknown' };
      if (b === WAIVERS) return waiverFile({ kind: 'plan', plan }, base);
      if (b !== 'decisions' && b !== 'enforcement' && b !== 'violations') return { kind: 'unknown' };
      if (!c!.endsWith('.yaml')) return { kind: 'unknown' };
      const id = c!.slice(0, -'.yaml'.length);
      if (!isUlid(id)) return { kind: 'bad-id', of: 'record', problem: ulidProblem(id, 'record file name')! };
      return { kind: 'record', plan, record: b, id };
    }
    default:
      return { kind: 'unknown' };
  }
}

function waiverFile(scope: WaiverScope, base: string): PathKind {
  if (!base.endsWith('.yaml')) return { kind: 'unknown' };
  const id = base.slice(0, -'.yaml'.length);
  if (!isUlid(id)) return { kind: 'bad-id', of: 'waiver', problem: ulidProblem(id, 'waiver file name')! };
  return { kind: 'waiver', scope, id };
}

function invariantFile(scope: Scope, base: string): PathKind {
  if (!base.endsWith('.yaml')) return { kind: 'unknown' };
  const id = base.slice(0, -'.yaml'.length);
  if (!isUlid(id)) return { kind: 'bad-id', of: 'invariant', scope, problem: ulidProblem(id, 'invariant file name')! };
  return { kind: 'invariant', scope, id };
}

/** Folders that are part of the layout (for reporting stray folders). */
export function isKnownFolder(rel: string): boolean {
  const parts = rel.split('/');
  const [top, a, b] = parts;
  switch (top) {
    case 'schemas':
    case 'actors':
      return true;
    case 'global':
      return parts.length === 1;
    // Past the length check of 1 `a` is there, and `b` past that of 2.
    case 'projects':
      return parts.length === 1 || (isName(a!) && (parts.length === 2 || (parts.length === 3 && b === WAIVERS)));
    case 'actions':
      return parts.length === 1 || (isName(a!) && (parts.length === 2 || (parts.length === 3 && isName(b!))));
    case 'plans':
      if (parts.length === 1) return true;
      // Past the length check `a` is there.
      if (!isUlid(a!)) return false;
      return (
        parts.length === 2 || (parts.length === 3 && (b === 'decisions' || b === 'enforcement' || b === 'violations' || b === WAIVERS))
      );
    default:
      return false;
  }
}

/** Schema file for the modeline of a file at `rel`, relative to that file. */
export function schemaRef(rel: string, schema: string): string {
  const depth = rel.split('/').length - 1;
  return `${'../'.repeat(depth)}schemas/${schema}`;
}

/**
 * The folder whose `.lock` the writers hold while they rewrite `rel` (a store-relative file), so that another
 * rewrite of it (`validate --fix`) can take the same lock: a plan's records are rewritten under the plan's lock
 * (`violation resolve`), every other file of a scope under its own folder's. Undefined for the files at the
 * store's top and its `schemas/` and `actors/`, which no scope lock guards.
 */
export function lockFolderOf(rel: string): string | undefined {
  const kind = classifyPath(rel);
  if (kind.kind === 'record') return `plans/${kind.plan}`;
  const slash = rel.lastIndexOf('/');
  const top = rel.slice(0, rel.indexOf('/'));
  if (slash < 0 || !['global', 'projects', 'actions', 'plans'].includes(top)) return undefined;
  return rel.slice(0, slash);
}

/**
 * The finding for a `*.yaml` whose name is no ULID, worded by what its folder holds: the same for every reader
 * of the store and for `validate`, which reach it through one classification.
 */
export function badId(path: string, kind: Extract<PathKind, { kind: 'bad-id' }>): Diagnostic {
  const folder = path.slice(0, path.lastIndexOf('/'));
  const [where, holds, leave] =
    kind.of === 'invariant'
      ? ['a scope folder', 'an invariant', 'the scope folder']
      : kind.of === 'record'
        ? [`${folder.slice(folder.lastIndexOf('/') + 1)}/`, 'a record', 'the plan folder']
        : ['waivers/', 'a waiver', 'waivers/'];
  // A name that is an id but for its case (a hand rename, a case-folding file system) is named as the id it stands for.
  const name = path.slice(path.lastIndexOf('/') + 1, -'.yaml'.length);
  const meant = isUlid(name.toUpperCase()) ? `${folder}/${name.toUpperCase()}.yaml` : '<its id>.yaml';
  return {
    code: 'id-invalid',
    severity: 'error',
    file: path,
    line: 0,
    col: 0,
    message: `${kind.problem}; every *.yaml in ${where} is ${holds}`,
    hint:
      kind.of === 'invariant'
        ? // --fix renames a file holding a valid id, and gives one to a file holding none (docs/validation.md).
          `Rename the file to ${meant} (\`agents validate --fix\` does it, and gives a file without an id one), or move it out of the scope folder.`
        : `Rename the file to ${meant}, or move it out of ${leave}.`,
  };
}
