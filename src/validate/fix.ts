import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { byPosition } from '../core/diagnostics.ts';
import { AgentsError } from '../core/errors.ts';
import { classifyPath, LOCK_NAME, lockFolderOf, temporaryParts, temporaryTarget } from '../core/layout.ts';
import { isUlid } from '../core/names.ts';
import { parseYaml } from '../core/parse.ts';
import { isFolder, removeFile, removeFolder, writeFileAtomic } from '../store/atomic-write.ts';
import { lockBlocker, removeLockBlocker } from '../store/lock-blocker.ts';
import { clearStaleLock, withFolderLocks } from '../store/lock.ts';
import { ReplaceBatch } from '../store/replace-batch.ts';
import { tempWriterState } from '../store/stale-temps.ts';
import type { WorkingTreeSource } from '../store/tree-source.ts';
import { modelineProblem, modelineTarget } from './check-file.ts';
import { assignId, isScopeInvariant, notDone, type Refusal } from './fix-ids.ts';
import { finishMoves, interruptedMoves } from './fix-moves.ts';
import { withModeline, withModelineIfMissing } from './modeline-text.ts';
import type { Fix, FixOptions } from './result.ts';
import type { ValidateReport } from './validate-tree.ts';

/** Files fixed or staged between two turns of the event loop, at which a stop signal is taken. */
const FIXES_BETWEEN_SIGNALS = 200;

/**
 * Applies the fixes that are safe to make mechanically, and nothing else:
 * a missing modeline, a file name that differs from a valid unused id, and
 * temporary files and lock files of writers that are gone, and whatever
 * stands at a lock's name that is not a file (a link, a FIFO, an empty
 * folder). Every write is atomic. Modelines and temporaries, which can be
 * many, go through one ReplaceBatch: one flush of the file system for all of
 * them rather than an fsync per file (docs/adr/0076-validate-fix-one-flush.md).
 */
export async function applyFixes(tree: WorkingTreeSource, report: ValidateReport, options: FixOptions): Promise<Fix[]> {
  const { signal } = options;
  // Fixing many files takes seconds: now and then the signals are let in, and an abort stops the run.
  const letSignalsIn = async () => {
    if (signal === undefined) return;
    await new Promise((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
  };
  const fixes: Fix[] = [];
  const batch = new ReplaceBatch(tree.root);
  const claimed = new Set(report.usedIds());
  const renamed = new Set<string>();
  // Files named by an id an earlier file of the store has: that name is not theirs to write in as an id.
  const reusers = new Set(report.diagnostics.filter((d) => d.code === 'id-reused').map((d) => d.file));
  // PATHS bound what is fixed: a file the user did not name is not changed.
  const within = options.within ?? (() => true);
  const diagnostics = byPosition(options.within ? report.diagnostics.filter((d) => within(d.file)) : report.diagnostics);
  // Found before any temporary goes: the mark of a move cut short is one, and says which copy the move left. Found in
  // the whole report, whose id-reused finding may be the other copy's, outside PATHS: a mark inside them is never
  // removed as a stray temporary, which would leave two copies no later --fix can tell apart.
  const moves = interruptedMoves(tree, report, options.processAlive);
  const markers = new Set(moves.map((m) => m.marker));
  const idFixes: typeof diagnostics = [];
  let since = 0;
  for (const d of diagnostics) {
    if (++since === FIXES_BETWEEN_SIGNALS) {
      since = 0;
      await letSignalsIn();
    }
    switch (d.code) {
      case 'schema':
      case 'id-mismatch':
      case 'id-invalid':
        // Made below, under the scope locks, once the locks this loop clears are gone.
        if (isScopeInvariant(d.file)) idFixes.push(d);
        break;
      case 'temporary-file':
        if (!markers.has(d.file)) fixes.push(removeTemporary(tree, d.file, options, batch));
        break;
      case 'stale-lock':
        fixes.push(await removeStaleLock(tree, d.file, signal));
        break;
      case 'bad-lock':
        fixes.push(
          attempt({ file: d.file, action: 'remove-bad-lock', message: `removed ${d.file}, which was not a writer's lock file` }, () =>
            removeLockBlocker(tree.root, d.file),
          ),
        );
        break;
      default:
        break;
    }
  }
  // Once the stale locks of the move's writer are cleared above; the copy it left gets no id and no modeline. A move
  // whose copy or mark is outside the PATHS given is left, its mark kept: a run on the other copy does not remove it.
  fixes.push(
    ...(await finishMoves(
      tree.root,
      moves.filter((m) => within(m.left) && within(m.marker)),
      options,
    )),
  );
  for (const m of moves) renamed.add(m.left);
  // A rename or an id is made holding its scope's lock, as every writer holds it: two --fix runs at once would
  // otherwise each give one hand-written file an id of its own, and leave two copies of it. What each file needs is
  // read first (so that only those scopes are locked); the file is read again under the lock, and one the other run
  // renamed meanwhile is left alone, said, and the report checked again.
  const planned: { d: (typeof diagnostics)[number]; plan: Fix }[] = [];
  const seen = new Set<string>();
  for (const d of idFixes) {
    if (renamed.has(d.file)) continue;
    // Each file once: every finding of one file leads to the same rename or id, or to none.
    if (seen.has(d.file)) continue;
    seen.add(d.file);
    const plan = idFix(d, { reason: '', failed: false });
    if (plan === undefined) {
      if (!tree.readOne(d.file).ok) options.onChanged?.();
      continue;
    }
    planned.push({ d, plan });
  }
  if (planned.length > 0) {
    let locked = false;
    try {
      await withFolderLocks(
        tree.root,
        planned.map(({ d }) => lockFolderOf(d.file)!),
        () => {
          locked = true;
          for (const { d, plan } of planned) {
            const also: Fix[] = [];
            const fix = idFix(d, undefined, also);
            if (fix === undefined) {
              fixes.push(notDone(plan, { reason: 'it changed since it was checked (another --fix ran meanwhile)', failed: false }));
              options.onChanged?.();
              renamed.add(d.file);
              continue;
            }
            fixes.push(fix, ...also);
            renamed.add(d.file);
          }
        },
        options.onStale ? { notice: options.onStale } : {},
      );
    } catch (error) {
      if (locked || !(error instanceof AgentsError)) throw error;
      // Said for each file that needed one, as a modeline is when its scope cannot be locked.
      const failed = error.code === 'write-failed';
      for (const { d, plan } of planned) {
        fixes.push(notDone(plan, { reason: `${error.message}${failed ? '' : '; run --fix again later'}`, failed }));
        renamed.add(d.file);
      }
    }
  }
  // Each file is read again as its modeline is written, rather than kept since the check: a store whose
  // 100,000 files all lack their modeline would otherwise hold every one of them (docs/adr/0071-bounded-memory.md).
  // The scope locks are held from the first read to the last rename, as every writer holds them: an edit made
  // between the two would otherwise be replaced by the content read before it. A scope whose lock no writer can
  // take (a folder kept at its name, `bad-lock`) gets no modeline, and says why, rather than stopping the run.
  const folders = new Set<string>();
  const modelines: string[] = [];
  for (const d of diagnostics) {
    if (d.code !== 'modeline-missing' || renamed.has(d.file)) continue;
    const folder = lockFolderOf(d.file);
    const blocked = folder === undefined ? null : lockBlocker(join(tree.root, folder, LOCK_NAME));
    if (blocked !== null) {
      fixes.push({
        file: d.file,
        action: 'add-modeline',
        done: false,
        message: `kept ${d.file}: ${folder}/${LOCK_NAME} is ${blocked}, so its scope cannot be locked; remove it, then run --fix again`,
      });
      continue;
    }
    modelines.push(d.file);
    if (folder !== undefined) folders.add(folder);
  }
  const staged: Fix[] = [];
  let done = 0;
  const tick = () => options.onProgress?.(++done, modelines.length);
  let locked = false;
  try {
    await withFolderLocks(
      tree.root,
      [...folders],
      async () => {
        locked = true;
        try {
          for (let start = 0; start < modelines.length; start += FIXES_BETWEEN_SIGNALS) {
            if (start > 0) await letSignalsIn();
            stageModelines(modelines.slice(start, start + FIXES_BETWEEN_SIGNALS));
          }
        } catch (error) {
          batch.discard();
          throw error;
        }
        const failed = batch.commit();
        for (const fix of staged) {
          const error = failed.get(fix.file);
          if (error) Object.assign(fix, { done: false, failed: true, message: `${fix.message}: not done, ${error.message}` });
        }
      },
      options.onStale ? { notice: options.onStale } : {},
    );
  } catch (error) {
    if (locked || !(error instanceof AgentsError)) throw error;
    // A scope held by another writer past the wait, or one that cannot be written: no modeline is written, each
    // says why, and what was done before (renames, ids, cleared locks, the removals staged in the batch) stands and
    // is reported. A refusal of the file system fails the run, as it does for a modeline itself (attempt).
    batch.commit();
    const failed = error.code === 'write-failed';
    for (const file of modelines)
      fixes.push({
        file,
        action: 'add-modeline',
        done: false,
        message: `kept ${file}: ${error.message}${failed ? '' : '; run --fix again later'}`,
        ...(failed ? { failed: true } : {}),
      });
  }
  return fixes;

  /**
   * A file without an id gets one (./fix-ids.ts); one with an id is named after it; with `refused`, neither is
   * written (the fix is said), and no id is claimed. The modeline a renamed file lacked goes in with the same write
   * (`also`): one --fix run fixes it whole.
   */
  function idFix(d: (typeof diagnostics)[number], refused?: Refusal, also: Fix[] = []): Fix | undefined {
    return d.code === 'id-mismatch'
      ? renameToId(tree, d.file, claimed, also, refused)
      : (renameToId(tree, d.file, claimed, also, refused) ?? assignId(tree, d.file, claimed, reusers.has(d.file), also, refused));
  }

  function stageModelines(files: readonly string[]): void {
    tree.visit(
      files,
      (i, buffer, length) => {
        const file = files[i]!;
        const before = buffer.subarray(0, length);
        const problem = modelineProblem(before, modelineTarget(file, classifyPath(file)));
        if (problem === undefined) {
          fixes.push({
            file,
            action: 'add-modeline',
            message: `kept ${file}: it changed since it was checked, and has its modeline now`,
            done: false,
          });
          tick();
          return;
        }
        let after = '';
        const said = problem.at === undefined ? 'added the schema modeline to' : 'replaced the modeline naming another schema in';
        const fix = attempt({ file, action: 'add-modeline', message: `${said} ${file}` }, () => {
          after = withModeline(file, before);
          batch.stage(file, after);
        });
        fixes.push(fix);
        if (fix.done) {
          staged.push(fix);
          options.onModeline?.(file, before, after);
        }
        tick();
      },
      (i, r) => {
        const file = files[i]!;
        fixes.push({
          file,
          action: 'add-modeline',
          message: `added the schema modeline to ${file}: not done, it ${r.message}`,
          done: false,
        });
        tick();
      },
    );
  }
}

function attempt(fix: Omit<Fix, 'done'>, act: () => void): Fix {
  try {
    act();
    return made(fix, true, fix.message);
  } catch (error) {
    if (!(error instanceof AgentsError)) throw error;
    const declined = made(fix, false, `${fix.message}: not done, ${error.message}`);
    // A refusal of the file system fails the run; a fix declined on purpose (a lock folder that holds files) does not.
    return error.code === 'write-failed' ? { ...declined, failed: true } : declined;
  }
}

/**
 * The Fix, built field by field. Not `{ ...fix, done }`: a spread of objects
 * of several shapes (with and without `to`) gives each copy a hidden class of
 * its own in V8 (docs/adr/0071-bounded-memory.md).
 */
function made(fix: Omit<Fix, 'done'>, done: boolean, message: string): Fix {
  return fix.to === undefined
    ? { file: fix.file, action: fix.action, message, done }
    : { file: fix.file, action: fix.action, to: fix.to, message, done };
}

/** An invariant file named other than its id, when the id is a valid ULID no other file uses. */
function renameToId(tree: WorkingTreeSource, file: string, claimed: Set<string>, also: Fix[], refused?: Refusal): Fix | undefined {
  if (!isScopeInvariant(file)) return undefined;
  const r = tree.readOne(file);
  if (!r.ok) return undefined;
  const parsed = parseYaml(file, r.bytes);
  const data = parsed.value?.data as { id?: unknown } | undefined;
  const id = data && typeof data === 'object' ? data.id : undefined;
  if (typeof id !== 'string' || !isUlid(id)) return undefined;
  const to = `${file.slice(0, file.lastIndexOf('/') + 1)}${id}.yaml`;
  if (to === file) return undefined;
  if (claimed.has(id)) {
    // Said, not skipped in silence: the hint of id-mismatch points here.
    return {
      file,
      action: 'rename',
      to,
      done: false,
      message: `kept ${file}: its id ${id} is already the name of another file or plan of the store; give this file a new id, or correct its id`,
    };
  }
  if (refused !== undefined) return notDone({ file, action: 'rename', to, message: `kept ${file}` }, refused);
  claimed.add(id);
  // A byte order mark stays where it was, in front: the rename changes the name, not the bytes.
  const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(r.bytes);
  const bom = decoded.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = decoded.slice(bom.length);
  const modelined = withModelineIfMissing(to, text);
  const fix = attempt({ file, action: 'rename', to, message: `renamed ${file} to ${to} (the name now equals its id)` }, () => {
    writeFileAtomic(tree.root, to, bom + (modelined ?? text), 'create', file);
    removeFile(tree.root, file);
  });
  if (fix.done && modelined !== undefined)
    also.push({ file: to, action: 'add-modeline', message: `added the schema modeline to ${to}`, done: true });
  return fix;
}

/** A lock whose process is gone, cleared as a waiting writer clears it; a store that refuses the removal (read-only) fails the run. */
async function removeStaleLock(tree: WorkingTreeSource, file: string, signal: AbortSignal | undefined): Promise<Fix> {
  let cleared: string | null = null;
  let error: unknown;
  try {
    cleared = await clearStaleLock(tree.root, file, signal);
  } catch (e) {
    error = e;
  }
  const fix = attempt({ file, action: 'remove-stale-lock', message: `removed stale lock ${file}` }, () => {
    if (error !== undefined) throw error;
  });
  if (!fix.done) return fix;
  // Gone with the folder it was in (a temporary folder removed above) or cleared by another writer: nothing is kept.
  if (cleared === null && !existsSync(join(tree.root, file)))
    return {
      file,
      action: 'remove-stale-lock',
      done: true,
      message: `${file} is gone already: removed with its folder, or by another writer`,
    };
  return cleared === null
    ? {
        file,
        action: 'remove-stale-lock',
        done: false,
        message: `kept ${file}: it is not stale now (its process is running, or another writer took it)`,
      }
    : { file, action: 'remove-stale-lock', done: true, message: `removed stale lock ${file} (${cleared})` };
}

/** `.<name>.<writer>.<pid>.<random>.tmp`, left by a writer that died before renaming it into place. */
function removeTemporary(tree: WorkingTreeSource, file: string, options: FixOptions, batch: ReplaceBatch): Fix {
  const writer = tempWriterState(join(tree.root, file), options.processAlive);
  if (writer !== 'gone') {
    const pid = temporaryParts(file.slice(file.lastIndexOf('/') + 1))?.pid;
    return {
      file,
      action: 'remove-temporary',
      done: false,
      message:
        writer === 'running'
          ? `kept ${file}: process ${pid} that may be writing it is still running`
          : `kept ${file}: process ${pid} that wrote it runs on another host or in another container (pid namespace), where this one cannot tell whether it still runs; delete it by hand once no writer runs there`,
    };
  }
  const folder = isFolder(tree.root, file);
  const message = folder
    ? `removed unfinished ${file.startsWith('projects/') ? 'project' : 'plan'} folder ${file}/`
    : `removed temporary file ${file}`;
  // Gone since the check (its writer, running then, has finished and renamed it into place): nothing is left to do.
  let gone = false;
  const fix = attempt({ file, action: 'remove-temporary', message }, () => {
    gone = !(folder ? removeFolder(tree.root, file) : batch.remove(file));
  });
  if (!gone) return fix;
  // Put in place by its writer, or removed by another --fix (which may have finished the move it marked): the
  // check's report is behind the store, and is made again.
  options.onChanged?.();
  return made(fix, true, `${file} is gone already: its writer has finished, or another --fix removed it`);
}

/**
 * The report as a fresh check would give it after `fixes`, when that follows
 * from the fixes alone: only modelines were added (to files with nothing else
 * to report, so no position moves) and temporary files removed. Undefined
 * otherwise (a rename, a lock, a modeline on a file with other findings, or
 * one not added: the file changed since the check, by another writer or
 * another --fix): the store is then checked again. Saves a second full check
 * of a large store whose files all lacked their modeline.
 */
export function reportAfterFixes(report: ValidateReport, fixes: readonly Fix[]): ValidateReport | undefined {
  const modelined = new Set<string>();
  const removed = new Set<string>();
  const standsFor = new Set<string>();
  let folders: Set<string> | undefined;
  for (const f of fixes) {
    if (!f.done && f.action === 'add-modeline') return undefined;
    if (!f.done) continue;
    if (f.action === 'add-modeline') modelined.add(f.file);
    else if (f.action === 'remove-temporary') {
      // An unfinished plan folder takes its files with it: checked again.
      folders ??= new Set(report.entries.filter((e) => e.type === 'dir').map((e) => e.path));
      if (folders.has(f.file)) return undefined;
      removed.add(f.file);
      // The file it stood for may have changed with it (a move's mark goes once its copy is gone): checked again if
      // anything is said of that file.
      const target = temporaryTarget(f.file);
      if (target !== undefined) standsFor.add(target);
    } else return undefined;
  }
  const gone = (d: { code: string; file: string }) =>
    (d.code === 'modeline-missing' && modelined.has(d.file)) || (d.code === 'temporary-file' && removed.has(d.file));
  for (const d of report.diagnostics) {
    if (gone(d)) continue;
    const moved = (file: string) => modelined.has(file) || removed.has(file) || standsFor.has(file);
    if (moved(d.file)) return undefined;
    for (const r of d.related ?? []) if (moved(r.file)) return undefined;
  }
  const entries = removed.size === 0 ? report.entries : report.entries.filter((e) => !removed.has(e.path));
  return {
    ...report,
    entries,
    files: removed.size === 0 ? report.files : entries.filter((e) => e.type !== 'dir').length,
    diagnostics: report.diagnostics.filter((d) => !gone(d)),
  };
}
