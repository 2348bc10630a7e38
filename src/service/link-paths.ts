import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

/** How many links one path may pass through, as the system's own limit (SYMLOOP_MAX, 40 on Linux): a loop ends. */
const MAX_LINKS = 40;

/** The separators of a path on this platform: Windows takes both. */
const SEPARATORS = process.platform === 'win32' ? /[\\/]/ : /\//;

/**
 * Where `path` leads, as the operating system finds it: one component after
 * another, each link followed where it stands, so that `..` after a link goes
 * up from the link's target (`lnk/../x` is not `x` when `lnk` is a link),
 * which folding `..` first (path.resolve) gets wrong. A dangling link is
 * followed to where it points (a write through it creates its target). The
 * part that does not exist yet (a file about to be created) is appended as
 * named. A relative path is taken from the process's folder.
 */
export function physicalPath(path: string): string {
  return follow(path, { links: 0 });
}

/**
 * A path through the process's own entries (`/proc/self/cwd/x`, `/dev/fd/3`): to the process that follows it, its own
 * folder or file, which another process (the guard hook, which Claude Code runs in its shell's folder) cannot see.
 */
export const OWN_PROCESS = /^\/(?:proc\/(?:self|thread-self)|dev\/(?:fd|stdin|stdout|stderr))(?:\/|$)/;

/**
 * physicalPath, and whether the way there passes through the process's own entries ({@link OWN_PROCESS}), as named
 * or through a link (`lnk` → `/proc/self/cwd/secrets`): where such a path leads depends on the process that follows it.
 */
export function physicalPathOf(path: string): { path: string; ownProcess: boolean } {
  const passed = { links: 0, ownProcess: false };
  return { path: follow(path, passed), ownProcess: passed.ownProcess };
}

/** The links followed so far, counted across the calls a link makes; when asked for, whether the way passed the process's own entries. */
interface Passed {
  links: number;
  ownProcess?: boolean;
}

/** physicalPath, with what the way passed kept in `passed`. */
function follow(path: string, passed: Passed): string {
  const root = parse(path).root;
  let here = root === '' ? resolve('.') : root;
  let exists = true;
  // The components after the first that does not exist, named as given: nothing more is asked of the file system, so
  // they are joined once at the end. Joined one by one, each join copied the whole path so far: a path of 45,000
  // components (`cd a/a/a/…` given to check_action or the hook) took minutes, past the client's time-out.
  const beyond: string[] = [];
  for (const part of path.slice(root.length).split(SEPARATORS)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      // `here` is already where its links lead, so its parent is the one the system would take.
      if (beyond.length > 0) beyond.pop();
      else here = dirname(here);
      continue;
    }
    if (!exists) {
      // The process's own entries are named by the first components: a path longer than their names keeps its start.
      if (passed.ownProcess === false && process.platform !== 'win32' && beyond.length < 4)
        passed.ownProcess = OWN_PROCESS.test(join(here, ...beyond, part));
      beyond.push(part);
      continue;
    }
    const next = join(here, part);
    if (passed.ownProcess === false && process.platform !== 'win32' && OWN_PROCESS.test(next)) passed.ownProcess = true;
    // realpath follows a link and its chain at once: where the process's own entries are asked for, the way it goes
    // is walked too; physicalPath alone (the guard hook's paths, an export's) spares the walk and its count of links.
    const link = passed.ownProcess === false ? danglingTarget(next, passed) : undefined;
    if (link !== undefined) follow(isAbsolute(link) ? link : `${here}${sep}${link}`, passed);
    try {
      here = realpathSync(next);
      continue;
    } catch {
      exists = false;
      const target = danglingTarget(next, passed);
      if (target !== undefined) {
        here = follow(isAbsolute(target) ? target : `${here}${sep}${target}`, passed);
        continue;
      }
    }
    here = next;
  }
  return beyond.length > 0 ? join(here, ...beyond) : here;
}

/** What the link `path` points to, when it is one and the limit of links is not reached; else undefined. */
function danglingTarget(path: string, passed: Passed): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink() || ++passed.links > MAX_LINKS) return undefined;
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The link `rel` (relative to `top`) when its text is an absolute path into the repository: `abs` as written, and
 * `relative`, the same file named from the link's folder, as a link every clone follows alike; else undefined.
 */
export function absoluteLinkInside(top: string, rel: string): { abs: string; relative: string } | undefined {
  let abs: string;
  try {
    abs = readlinkSync(join(top, rel));
  } catch {
    return undefined;
  }
  if (!isAbsolute(abs)) return undefined;
  // The folder as the system finds it, the name as written: the link names that file, not where it leads in turn.
  const to = relative(physicalPath(top), join(physicalPath(dirname(abs)), basename(abs)));
  if (to === '' || to === '..' || to.startsWith(`..${sep}`) || isAbsolute(to)) return undefined;
  const from = physicalPath(dirname(join(top, rel)));
  return {
    abs,
    relative: relative(from, join(physicalPath(top), to))
      .split(sep)
      .join('/'),
  };
}
