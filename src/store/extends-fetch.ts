// Fetching policy sources into the cache (docs/extends.md, "extends fetch"): the one part of policy sources that
// talks to remotes, under the one lock of the cache. Reading a fetched source is extends.ts's.

import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import { EXTENDS_LOCK_FILE, type LockEntry } from '../core/extends.ts';
import type { ExtendsSource } from '../core/model.ts';
import {
  fetchCommit,
  hasCommit,
  holdsObject,
  initBareCache,
  isRepository,
  lsRemote,
  reachSettings,
  readsWhole,
  topNames,
} from '../git/extends.ts';
import { type ConfigPair, ownBareRepository } from '../git/runner.ts';
import { cacheRoot, holdsStore, noStore, READ_FROM_SOURCE, resolveSourceUrl, sourceCacheDir } from './extends.ts';
import { checkPin, isChecked, rememberChecked } from './pin-check.ts';
import { unknownRef } from './ref-refusals.ts';
import { type SourceOfSource, sourcesOfSource } from './source-extends.ts';
import { writeFailure } from './atomic-write.ts';
import { lockTimeoutFromEnv, withFolderLock } from './lock.ts';
import { makeFolders } from './write-all.ts';

/**
 * The scratch repository of a branch check: its name starts with a dot, which no source name can
 * (`X.check.git` was the cache of a source named `X.check`, and the check removed it).
 */
export function scratchDir(root: string, name: string): string {
  return ownBareRepository(join(root, `.${name}.check.git`));
}

/** What `agents extends fetch` did for one source. */
export interface FetchOutcome {
  name: string;
  commit: string;
  /** `fetched` from the remote, or already `cached`. */
  status: 'fetched' | 'cached';
  /** What the source's store holds that is never read or run (actors/, config.yaml, …). */
  ignored: string[];
  /** Which of `ignored` are folders (the rest are files). */
  ignoredFolders: string[];
  /** The sources this source pins in its own lock: never inherited through it (docs/extends.md, "A source that extends another"). */
  extends: SourceOfSource[];
}

/**
 * Refuses a cache path that something else holds (a file where the cache's folder or a source's repository
 * belongs): git cannot run there, and fetching again cannot help. Names the path and what to do.
 */
function notAFolder(path: string): void {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    return;
  }
  if (!folder)
    throw new AgentsError(`the cache of policy sources cannot be written: ${path} is a file, not a folder`, EXIT_CODES.usage, {
      hint: `Nothing was fetched. It is no file of this tool's: move it away or delete it (\`rm ${path}\`), then run the command again.`,
      code: 'extends-fetch-failed',
      detail: { path },
    });
}

/** Whether the source's remote answers at all (one `git ls-remote` of HEAD). */
async function answers(storeRoot: string, source: ExtendsSource, signal?: AbortSignal): Promise<boolean> {
  try {
    await lsRemote(storeRoot, resolveSourceUrl(storeRoot, source.url), 'HEAD', signal);
    return true;
  } catch (error) {
    if (signal?.aborted) throw error;
    return false;
  }
}

/** How long a fetch waits for another's lock of the cache by default: the other fetches over the network. */
export const FETCH_LOCK_TIMEOUT_MS = 600_000;

/**
 * Brings each pinned commit into the cache: one shallow fetch per missing
 * commit, none for a commit already there. Runs under one lock of the cache
 * folder, so two `extends fetch` at once take turns (the second finds the
 * commits cached). Writes nothing outside the cache.
 */
export async function fetchPins(
  storeRoot: string,
  pins: readonly { source: ExtendsSource; pin: LockEntry }[],
  /**
   * `fresh`: the pins were just taken from the remote (`extends update`), nothing to check, remembered as checked only
   * once the lock is written (rememberPins). `previous`: the pins an
   * update moves away from, or a revision's (`fetch --rev`), fetched only for a report of that side: neither
   * checked against their refs nor remembered as checked, as they are not the working tree's. `signal` stops the
   * run's git processes. `locked`: the caller holds the cache's lock already (withSourcesLock). `notice`: told of a
   * wait for that lock that lasts.
   */
  options: { fresh?: boolean; previous?: boolean; signal?: AbortSignal; locked?: boolean; notice?: (message: string) => void } = {},
): Promise<FetchOutcome[]> {
  const root = cacheRoot(storeRoot);
  const fetch = async () => {
    const outcomes: FetchOutcome[] = [];
    let reach: ConfigPair[] | undefined;
    for (const { source, pin } of pins) {
      options.signal?.throwIfAborted();
      const dir = sourceCacheDir(storeRoot, source.name);
      notAFolder(dir);
      let made = !existsSync(dir);
      const signal = options.signal;
      try {
        if (made) await initBareCache(dir, signal);
      } catch (error) {
        // Stopped while git made it: what it made is removed, as after a failed fetch.
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
      let status: FetchOutcome['status'] = 'cached';
      if (!options.fresh && !options.previous) {
        try {
          await checkPin(storeRoot, dir, scratchDir(root, source.name), resolveSourceUrl(storeRoot, source.url), pin, source, signal);
        } catch (error) {
          if (made) rmSync(dir, { recursive: true, force: true });
          throw error;
        }
      }
      let cached = await hasCommit(dir, pin.commit);
      // A cache git cannot open (its HEAD or shallow list lost or cut short) would fail this fetch and every one after
      // it, and one whose copy of the commit lacks an object or holds one damaged (cut short, overwritten), the
      // commit's own too, keeps it so: git takes an object it finds on disk for the one it would fetch. It is only a
      // cache, so it is made again, and removed again if the fetch fails.
      const damaged = cached
        ? !(await readsWhole(dir, pin.commit, source.path))
        : !made && (!(await isRepository(dir)) || (await holdsObject(dir, pin.commit)));
      if (damaged) {
        cached = false;
        rmSync(dir, { recursive: true, force: true });
        made = true;
        try {
          await initBareCache(dir, signal);
        } catch (error) {
          rmSync(dir, { recursive: true, force: true });
          throw error;
        }
      }
      // A commit id `update` pins from a URL it was never fetched from (a fork, a mirror): the cache holding the
      // commit says nothing of whether that remote does, and a clone fetches it there. Fetched again to find out.
      const unproven = options.fresh === true && pin.kind === 'commit' && cached && !isChecked(dir, pin);
      if (!cached || unproven) {
        try {
          reach ??= await reachSettings(storeRoot);
        } catch (error) {
          if (made) rmSync(dir, { recursive: true, force: true });
          throw error;
        }
        try {
          await fetchCommit(dir, resolveSourceUrl(storeRoot, source.url), pin.commit, signal, reach);
        } catch (error) {
          if (made) rmSync(dir, { recursive: true, force: true });
          // A cache git could not write (a full disk) is not a remote's fault: say so as it is.
          if (error instanceof AgentsError) throw error;
          // `update` of a ref that is a commit id: a remote that answers but has no such commit has no such ref.
          if (options.fresh && pin.kind === 'commit' && (await answers(storeRoot, source, signal)))
            throw await unknownRef(storeRoot, resolveSourceUrl(storeRoot, source.url), source, signal);
          throw new AgentsError(
            `cannot fetch the policy source ${source.name}: ${error instanceof Error ? error.message : String(error)}`,
            EXIT_CODES.usage,
            {
              hint: 'Check the URL and that the remote still holds the pinned commit; the cache was left as it was.',
              code: 'extends-fetch-failed',
            },
          );
        }
        status = 'fetched';
      }
      let names: { name: string; folder: boolean }[];
      try {
        names = await topNames(dir, pin.commit, source.path);
      } catch {
        throw noStore(source, pin.commit);
      }
      if (!holdsStore(names.filter((n) => n.folder).map((n) => n.name))) throw noStore(source, pin.commit);
      // An update's pins are remembered once its lock is written (rememberPins): a dry run, or a moved tag refused,
      // leaves the clone reading the pins it read before.
      if (!options.previous && !options.fresh) rememberChecked(dir, pin);
      const ignored = names.filter((n) => !READ_FROM_SOURCE.has(n.name));
      outcomes.push({
        name: source.name,
        commit: pin.commit,
        status,
        ignored: ignored.map((n) => n.name).sort(),
        ignoredFolders: ignored.filter((n) => n.folder).map((n) => n.name),
        // Read only when the source has a lock: a source that extends none costs no git process more.
        extends: names.some((n) => n.name === EXTENDS_LOCK_FILE && !n.folder) ? await sourcesOfSource(dir, pin.commit, source.path) : [],
      });
    }
    return outcomes;
  };
  return options.locked ? fetch() : withSourcesLock(storeRoot, fetch, options.signal, options.notice);
}

/** Remembers the pins `extends update` just wrote as checked: they are what their refs name at the source now. */
export function rememberPins(storeRoot: string, pins: readonly LockEntry[]): void {
  for (const pin of pins) rememberChecked(sourceCacheDir(storeRoot, pin.name), pin);
}

/**
 * Runs `fn` holding the one lock of the cache (`agents/extends/.lock` under the git folder), which every fetch
 * takes: `extends update` holds it from its read of the lock file to its write, so that two updates at once take
 * turns, the second reading the pins the first wrote instead of writing its own over them.
 */
export async function withSourcesLock<T>(
  storeRoot: string,
  fn: () => Promise<T>,
  signal?: AbortSignal,
  notice?: (message: string) => void,
): Promise<T> {
  const root = cacheRoot(storeRoot);
  const parent = join(root, '..');
  // `agents/` under the git folder is the tool's too (the parse cache's home): a file there is named as one here.
  notAFolder(parent);
  notAFolder(root);
  try {
    makeFolders(parent);
  } catch (error) {
    // A read-only checkout (or git folder) is the user's to fix, said as any refused write is, never a trace.
    throw writeFailure(error, parent);
  }
  // Named by its whole path: `extends/` alone leads nowhere, as the cache is under the git folder.
  return withFolderLock(parent, 'extends', fn, {
    label: root,
    // The holder fetches over the network, which takes longer than a store write: waited on as long as a fetch may take.
    timeoutMs: lockTimeoutFromEnv(undefined, FETCH_LOCK_TIMEOUT_MS),
    // Its signal ends the wait too: Ctrl-C while another fetch holds the lock stops this run then, not after that fetch.
    signal,
    // A wait as long as another's fetch is said once it lasts: silent, the command looked hung for minutes.
    ...(notice ? { notice } : {}),
  });
}
