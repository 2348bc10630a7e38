// An `invariant move` cut short between writing the new copy and removing the
// old one leaves the id in two scopes; the old one is marked by a link to it
// under a temporary's name (service/invariants/move.ts). `--fix` finishes the
// move: it removes the marked copy and its mark.
import { lstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import { AgentsError } from '../core/errors.ts';
import { classifyPath, lockFolderOf } from '../core/layout.ts';
import { parseInvariant } from '../core/parse.ts';
import { formatInvariantFile } from '../core/serialize.ts';
import { removeFile } from '../store/atomic-write.ts';
import { withFolderLocks } from '../store/lock.ts';
import { moveMarks } from '../store/stale-temps.ts';
import type { WorkingTreeSource } from '../store/tree-source.ts';
import { isScopeInvariant } from './fix-ids.ts';
import type { Fix, FixOptions } from './result.ts';
import type { ValidateReport } from './validate-tree.ts';

/** A move cut short: `left`, the copy it was moving away, marked by `marker`; `kept`, the copy it wrote. */
export interface InterruptedMove {
  id: string;
  left: string;
  kept: string;
  marker: string;
  /** The copies say other things (one was edited by hand since): which to keep is the user's to say. */
  differ: boolean;
}

/**
 * The moves cut short that the report shows: an id used by exactly two invariant files of the store, one of which
 * has beside it a link to itself under a temporary's name whose writer is gone. A move still running (its writer
 * alive) is its own to finish, and two copies without a mark are nothing a move left: both are left to the user.
 */
export function interruptedMoves(tree: WorkingTreeSource, report: ValidateReport, isAlive: FixOptions['processAlive']): InterruptedMove[] {
  const { root } = tree;
  const copies = new Map<string, Set<string>>();
  for (const d of report.diagnostics) {
    if (d.code !== 'id-reused') continue;
    const first = d.related?.[0]?.file;
    if (first === undefined || !isScopeInvariant(d.file) || !isScopeInvariant(first)) continue;
    const id = basename(d.file, '.yaml');
    const set = copies.get(id) ?? new Set<string>();
    set.add(first).add(d.file);
    copies.set(id, set);
  }
  const moves: InterruptedMove[] = [];
  for (const [id, paths] of copies) {
    if (paths.size !== 2) continue;
    const marked = [...paths].map((p) => ({ p, marker: markerOf(root, p, isAlive) })).filter((m) => m.marker !== undefined);
    if (marked.length !== 1) continue;
    const left = marked[0]!.p;
    const kept = [...paths].find((p) => p !== left)!;
    const one = asWritten(tree, left, id);
    moves.push({ id, left, kept, marker: marked[0]!.marker!, differ: one === undefined || one !== asWritten(tree, kept, id) });
  }
  return moves;
}

/**
 * The invariant file `rel` as a writer would write it in one place whatever its scope (a move adds or drops only
 * `source`, and the modeline follows the folder): two copies a move left say the same when these are equal.
 */
function asWritten(tree: WorkingTreeSource, rel: string, id: string): string | undefined {
  const kind = classifyPath(rel);
  const r = tree.readOne(rel);
  if (kind.kind !== 'invariant' || !r.ok) return undefined;
  const parsed = parseInvariant(rel, r.bytes, kind.scope, id);
  if (parsed.value === undefined) return undefined;
  const { scope: _scope, path: _path, source: _source, ...inv } = parsed.value;
  try {
    return formatInvariantFile(`global/${id}.yaml`, inv);
  } catch {
    // A value a writer would refuse (a file written by hand): nothing to compare by.
    return undefined;
  }
}

/** The temporary beside store file `rel` that is a link to it, made by a writer that is gone; undefined when none. */
function markerOf(root: string, rel: string, isAlive: FixOptions['processAlive']): string | undefined {
  return moveMarks(root, rel, isAlive).find((m) => m.writer === 'gone')?.marker;
}

/**
 * Finishes each move: holding both scopes' locks, as the move held them, removes the copy it left and its mark, once
 * both are seen again as they were (a writer meanwhile, another --fix, may have settled it).
 */
export async function finishMoves(root: string, moves: readonly InterruptedMove[], options: FixOptions): Promise<Fix[]> {
  const fixes: Fix[] = [];
  for (const m of moves) {
    if (m.differ) {
      fixes.push({
        file: m.left,
        action: 'finish-move',
        done: false,
        message: `kept ${m.left}: an interrupted \`invariant move\` of ${m.id} left it beside ${m.kept}, but the two copies differ (one was edited since); delete the one you do not want`,
      });
      continue;
    }
    const fix: Fix = {
      file: m.left,
      action: 'finish-move',
      done: false,
      message: `kept ${m.left}: an interrupted \`invariant move\` of ${m.id} to ${m.kept} left it`,
    };
    try {
      await withFolderLocks(
        root,
        [lockFolderOf(m.left)!, lockFolderOf(m.kept)!],
        () => {
          if (markerOf(root, m.left, options.processAlive) !== m.marker || !exists(root, m.kept)) {
            fix.message += ', and it changed since it was checked';
            options.onChanged?.();
            return;
          }
          removeFile(root, m.left);
          fix.done = true;
          fix.message = `removed ${m.left}: the copy of ${m.id} an interrupted \`invariant move\` left (the moved copy ${m.kept} stays)`;
          fixes.push(fix);
          fixes.push(removeMarker(root, m.marker));
        },
        options.onStale ? { notice: options.onStale } : {},
      );
      if (!fix.done) fixes.push(fix);
    } catch (error) {
      if (!(error instanceof AgentsError)) throw error;
      fixes.push({
        ...fix,
        message: `${fix.message}: ${error.message}`,
        ...(error.code === 'write-failed' ? { failed: true as const } : {}),
      });
    }
  }
  return fixes;
}

function removeMarker(root: string, marker: string): Fix {
  try {
    removeFile(root, marker);
    return { file: marker, action: 'remove-temporary', done: true, message: `removed temporary file ${marker}` };
  } catch (error) {
    return { file: marker, action: 'remove-temporary', done: false, message: `kept ${marker}: ${(error as Error).message}` };
  }
}

function exists(root: string, rel: string): boolean {
  try {
    return lstatSync(join(root, rel)).isFile();
  } catch {
    return false;
  }
}
