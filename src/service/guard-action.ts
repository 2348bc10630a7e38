/**
 * An agent's action as the guards judge it (docs/guard.md): the paths a client named, followed through links and
 * `..`, and the folders its command may run in, each made relative to the repository's top (or another working
 * tree's), with the writes into reserved folders noted.
 */
import { join, resolve } from 'node:path';
import { type ClientAction, GuardTimeout } from '../core/guard-clients.ts';
import type { GuardAction } from '../core/guard.ts';
import type { ReservedWrite } from '../core/guard-reserved.ts';
import { repoTop } from '../store/git-dir.ts';
import { inputPaths } from './guard-inputs.ts';
import { filesBelow, relativeCaseless, relativeTo, spelledFrom, wherePathLeads } from './guard-paths.ts';
import type { ReservedPaths } from './guard-reserved-paths.ts';
import { physicalPath } from './link-paths.ts';

/** What a client said of an action, before its paths are resolved. */
export type ActionAsGiven = Pick<
  ClientAction,
  'tool' | 'clientTool' | 'paths' | 'texts' | 'command' | 'cds' | 'cwd' | 'dir' | 'moves' | 'removes' | 'byName' | 'inputs' | 'started'
>;

/** Where an action is resolved: the repository's top, its reserved folders, and the time by which to give up. */
export interface ActionPlace {
  top: string;
  reserved: ReservedPaths;
  /** Past this time (ms since the epoch) resolving stops with a GuardTimeout. */
  deadline?: number | undefined;
}

/**
 * Throws a GuardTimeout once `deadline` (ms since the epoch) has passed: work done in one synchronous turn, which no
 * timer interrupts (paths followed through the file system, patterns run over a long text), stops so between its
 * steps, and the hook answers by guard.on_error in its time, not after the client has let the call through.
 */
export function stopPast(deadline: number | undefined): void {
  if (deadline !== undefined && Date.now() > deadline) throw new GuardTimeout('no decision in time');
}

export function resolveAction(action: ActionAsGiven, place: ActionPlace): GuardAction {
  // Each path is followed through the file system in this one synchronous turn: past the hook's deadline (a call
  // naming many thousands of paths) it stops.
  const inTime = () => stopPast(place.deadline);
  // The folders the action starts in: the agent's, then the tool's own (`dir`), each as named and from the home folder.
  const starts = spelledFrom(spelledFrom([process.cwd()], action.cwd), action.dir ?? '');
  const files: string[] = [];
  const seen = new Set<string>();
  const reserved: ReservedWrite[] = [];
  const caselessFiles: string[] = [];
  const add = (abs: string, ...reals: string[]) => {
    inTime();
    // Both the path as named and where it leads: a link into a guarded folder is caught, and so is a guarded link.
    // The worktrees are listed for the reserved folders below anyway: another's file costs no more to place.
    const found = [abs, ...reals].map((p) => repoPaths(place, p, true));
    for (const candidate of found.flatMap((m) => m.exact)) {
      if (candidate !== '' && !seen.has(candidate)) {
        seen.add(candidate);
        files.push(candidate);
      }
    }
    for (const candidate of found.flatMap((m) => m.caseless)) {
      if (candidate !== '' && !seen.has(candidate)) {
        seen.add(candidate);
        caselessFiles.push(candidate);
      }
    }
    const folder = place.reserved.folder([abs, ...reals]);
    if (folder !== undefined) reserved.push({ path: relativeTo(place.top, abs) || abs, folder });
  };
  // A path as named from the folder the action starts in, and as the home folder's when it starts with `~`; and from
  // the session's folder, where a tool's own process (an MCP server's) reads it, whatever folder the shell went to.
  const fileStarts = action.started === undefined ? starts : [...new Set([...starts, action.started])];
  const spellings = (p: string) => spelledFrom(fileStarts, p);
  // The files a patch file or an archive the command reads makes it write are named as its other paths are.
  const read = action.inputs === undefined ? undefined : inputPaths(action.inputs, place.top, spellings, inTime, place.deadline);
  for (const p of [...action.paths, ...(read?.paths ?? [])])
    for (const named of spellings(p)) add(resolve(named), ...wherePathLeads(named));
  // The folders an archive it could not read is extracted into: files of unknown names below each, where in the
  // repository; one inside git's folder, the store or the hook settings is a write there, which no guard decides.
  const folders = new Set<string>();
  for (const p of read?.folders ?? [])
    for (const named of spellings(p)) {
      const [abs, ...reals] = [resolve(named), ...wherePathLeads(named)];
      for (const at of [abs, ...reals]) for (const rel of repoPaths(place, at, true).exact) folders.add(rel);
      const kept = place.reserved.folder([abs, ...reals]);
      if (kept !== undefined) reserved.push({ path: relativeTo(place.top, abs) || abs, folder: kept });
    }
  // Each folder walked once: a shell's copy or move names its source twice (`cp -r a b` copies into `b` or to `b/a`,
  // which the text does not tell), and a folder moved and deleted in one command is named twice too.
  // A folder named by a shell's text alone is judged by its name when too large; one the tool names, refused.
  const byName = new Set(action.byName);
  const walked = new Map<string, { real: string; below: string[] }>();
  const walk = (named: string, given: string) => {
    const loose = byName.has(given);
    const key = `${loose ? 'n' : 's'}${named}`;
    let found = walked.get(key);
    if (found === undefined) {
      const real = physicalPath(named);
      found = { real, below: filesBelow(named, real, loose) };
      walked.set(key, found);
    }
    return found;
  };
  // A folder moved changes every file below it, where it was and where it goes (`public/` moved to `secrets`:
  // `secrets/x`; a copy, where it goes only): the guards judge those files, not the folder's name. Only a move, a
  // copy or a delete: another tool that names a folder (a search of the repository's top) would be judged by every
  // file of it.
  for (const move of action.moves ?? [])
    for (const from of spellings(move.from)) {
      const { real: fromReal, below } = walk(from, move.from);
      if (below.length === 0) continue;
      for (const to of spellings(move.to)) {
        const [fromAbs, toAbs, toReal] = [resolve(from), resolve(to), physicalPath(to)];
        for (const rel of below) {
          if (!move.copy) add(join(fromAbs, rel), join(fromReal, rel));
          add(join(toAbs, rel), join(toReal, rel));
        }
      }
    }
  // A folder deleted deletes every file below it, as a folder moved away does.
  for (const p of action.removes ?? [])
    for (const named of spellings(p)) {
      const { real, below } = walk(named, p);
      for (const rel of below) add(join(resolve(named), rel), join(real, rel));
    }
  const out: GuardAction = { tool: action.tool, files, texts: action.texts };
  if (action.clientTool !== undefined) out.clientTool = action.clientTool;
  if (reserved.length > 0) out.reserved = reserved;
  if (caselessFiles.length > 0) out.caselessFiles = caselessFiles;
  if (folders.size > 0) out.folders = [...folders];
  if (action.command !== undefined) out.command = action.command;
  // Where its command may run: where it starts and each folder a `cd` of it goes to, each as named and from the home
  // folder (a shell reads `cd ~/x` so), every one judged by its projects' guards.
  const cwds = new Set<string>();
  // The top named in another case, as for a file: a project's command guards hold for its folder however it is spelt.
  const caselessCwds = new Set<string>();
  for (const cd of ['', ...(action.cds ?? [])])
    for (const named of spelledFrom(starts, cd))
      for (const real of wherePathLeads(named)) {
        inTime();
        const paths = repoPaths(place, real, false);
        for (const rel of paths.exact) cwds.add(rel);
        for (const rel of paths.caseless) caselessCwds.add(rel);
      }
  const [cwd, ...more] = cwds;
  if (cwd !== undefined) out.cwd = cwd;
  if (more.length > 0) out.cwds = more;
  const [caselessCwd, ...moreCaseless] = caselessCwds;
  if (caselessCwd !== undefined) out.caselessCwd = caselessCwd;
  if (moreCaseless.length > 0) out.caselessCwds = moreCaseless;
  return out;
}

/**
 * Where `abs` is in the repository, as the guards name its files and folders: relative to this working tree's top,
 * and to another working tree's that holds it (nested in this one's too), as the same path here: the agent works under
 * this store's guards wherever it writes (ADR 0605). `caseless`: under a top named in another case only, judged where
 * git ignores case. `listed`: the worktrees are read already; else they are read only for a path outside this tree's
 * top, or below a `.git` other than its own, so that a command run here lists none.
 */
function repoPaths({ top, reserved }: ActionPlace, abs: string, listed: boolean): { exact: string[]; caseless: string[] } {
  const [own, ownCaseless] = [relativeTo(top, abs), relativeCaseless(top, abs)];
  const out = { exact: own === undefined ? [] : [own], caseless: ownCaseless === undefined ? [] : [ownCaseless] };
  if (!listed && own !== undefined && repoTop(abs) === top) return out;
  const other = reserved.otherWorktreePath(abs);
  if (other !== undefined) (other.caseless ? out.caseless : out.exact).push(other.rel);
  return out;
}
