// What an export keeps in its cache (store/export-cache.ts), and a later run answered from it (docs/export.md,
// "Performance"): the same files up to date, and the same warnings said.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { holdsBlock, TARGETS } from '../core/export.ts';
import { droppedTargets } from '../core/export-choice.ts';
import type { ExportTargetName } from '../core/model.ts';
import { type ExportCache, textHash } from '../store/export-cache.ts';
import type { ExportPlan, WatchedFile } from './export-plan.ts';
import { nestedTargetFiles } from './export-listed.ts';
import { linkedTarget } from './export-links.ts';
import { readExisting } from './export-targets.ts';

/** The watch of a file as it is now (its text, or undefined when there is none). */
export function watched(path: string, text: string | undefined): WatchedFile {
  return { path, hash: text === undefined ? null : textHash(text) };
}

/**
 * The plan the cache answers: the inputs have the digest it knew, and each
 * file it left up to date still has its hash (and no obsolete file of the
 * tool's is there), as does each other file its warnings were read from.
 * Undefined on any doubt: the export is then computed.
 */
export function planFromCache(
  cache: ExportCache,
  at: {
    key: string;
    digest: string;
    /** The clock's time (ms since the epoch): a waiver the files name may have expired. */
    now: number;
    top: string;
    targets: ExportTargetName[];
    listed: ExportTargetName[];
    whole: boolean;
  },
): ExportPlan | undefined {
  const { key, digest, top, targets, listed } = at;
  const data = cache.load(key);
  if (!data || data.digest !== digest) return undefined;
  // A waiver the files name has expired since: its sentence goes, though no input changed.
  if (data.until !== undefined && !(at.now < data.until)) return undefined;
  const folders = new Set<string>();
  const known = new Set<string>();
  const now = (path: string): string | null | false => {
    try {
      const text = readExisting(top, path, folders);
      return text === undefined ? null : textHash(text);
    } catch {
      return false;
    }
  };
  for (const f of data.files) {
    known.add(f.path);
    if (now(f.path) !== f.hash) return undefined;
  }
  for (const w of data.watched ?? []) if (now(w.path) !== w.hash) return undefined;
  const linked = data.linked ?? [];
  for (const l of linked) if (linkedTarget(top, l.path, known, folders) !== l.to) return undefined;
  if (at.whole) {
    for (const t of targets) {
      const spec = TARGETS[t];
      const stray = (rel: string) => !known.has(rel) && lstatSync(join(top, rel), { throwIfNoEntry: false })?.isFile();
      if (ruleFiles(top, spec).some(stray)) return undefined;
    }
    // A target config.yaml does not list whose root or rule files hold a block the run that made the cache did not see
    // (a one-off `--target` export since): a computed export takes those blocks back, so the cache cannot answer.
    const seen = new Set((data.watched ?? []).map((w) => w.path));
    const blockIn = (rel: string) => {
      if (seen.has(rel)) return false;
      try {
        const text = readExisting(top, rel, folders);
        return text !== undefined && holdsBlock(text);
      } catch {
        // A file the export cannot read as its own (a link, not UTF-8) is not touched by a computed export either.
        return false;
      }
    };
    for (const t of droppedTargets(targets, listed)) {
      const spec = TARGETS[t];
      if (blockIn(spec.root) || ruleFiles(top, spec).some(blockIn)) return undefined;
    }
  }
  return {
    top,
    targets,
    listed,
    changes: data.files.map((f) => ({ path: f.path, target: f.target, action: 'unchanged', before: undefined, after: undefined })),
    refused: [],
    // Said again: a glob no nested file can hold, an AGENTS.md chain over Codex's limit, … are as true as when they
    // were computed, and a run that says them once and then never again lets them be missed.
    warnings: [...(data.warnings ?? [])],
    linked,
    digest,
    cacheKey: key,
    cached: true,
    // The files its warnings were read from, and those it took a block out of: strayNestedBlock takes them as known.
    replay: { warnings: [...(data.warnings ?? [])], watched: [...(data.watched ?? [])] },
  };
}

/**
 * Whether a nested file of `targets` (AGENTS.md, CLAUDE.md, GEMINI.md) that the plan from the cache does not name
 * holds an agents block: one copied by hand into a folder no project names is obsolete, which only an export that
 * computes its files says. Git lists them, as that export does (nestedTargetFiles).
 */
export async function strayNestedBlock(cached: ExportPlan, storeRel: string): Promise<boolean> {
  // A dropped target's nested file that holds a block is taken back by that export too (obsoleteFiles), so it is looked
  // for; one the cache watches already is known.
  const nestedOf = (targets: readonly ExportTargetName[]) => targets.flatMap((t) => (TARGETS[t].nestedName ? [TARGETS[t].nestedName] : []));
  const own = new Set(nestedOf(cached.targets));
  const names = [...own, ...nestedOf(droppedTargets(cached.targets, cached.listed))];
  const known = new Set([
    ...cached.changes.map((c) => c.path),
    ...cached.linked.map((l) => l.path),
    ...(cached.replay?.watched ?? []).map((w) => w.path),
  ]);
  const folders = new Set<string>();
  for (const rel of await nestedTargetFiles(cached.top, storeRel, names)) {
    if (known.has(rel)) continue;
    try {
      const text = readExisting(cached.top, rel, folders);
      if (text !== undefined && holdsBlock(text)) return true;
    } catch {
      // A file the export cannot read as its own (a link on the way, not UTF-8): the export that computes says what it is,
      // if it is a target's (a dropped target's is left alone).
      if (own.has(rel.slice(rel.lastIndexOf('/') + 1))) return true;
    }
  }
  return false;
}

/** Keeps what a plan found (every file up to date, or just written) for the next run; nothing when something was refused. */
export function rememberPlan(cache: ExportCache, plan: ExportPlan): void {
  if (plan.digest === undefined || plan.cacheKey === undefined || plan.cached || plan.refused.length > 0) return;
  // A file the export took its block out of, keeping the owner's text, is no exported file any more (a computed
  // --check does not count it), but the answer holds only while it stays so: watched, not remembered as written.
  const kept = plan.changes.filter((c) => c.after !== undefined);
  const files = kept.filter((c) => holdsBlock(c.after!)).map((c) => ({ path: c.path, target: c.target, hash: textHash(c.after!) }));
  const cleared = kept.filter((c) => !holdsBlock(c.after!)).map((c) => watched(c.path, c.after));
  const replay = plan.replay;
  const watch = [...(replay?.watched ?? []), ...cleared];
  cache.save(plan.cacheKey, {
    digest: plan.digest,
    files,
    ...(plan.linked.length > 0 ? { linked: plan.linked } : {}),
    ...(plan.until !== undefined ? { until: plan.until } : {}),
    ...(replay && replay.warnings.length > 0 ? { warnings: replay.warnings } : {}),
    ...(watch.length > 0 ? { watched: watch } : {}),
  });
}

/** The paths of a target's rule folder (`.cursor/rules/`) its file pattern names; none without one, or unreadable. */
function ruleFiles(top: string, spec: (typeof TARGETS)[keyof typeof TARGETS]): string[] {
  if (!spec.projectDir || !spec.projectFilePattern) return [];
  try {
    return readdirSync(join(top, spec.projectDir))
      .filter((n) => spec.projectFilePattern!.test(n))
      .map((n) => `${spec.projectDir}/${n}`);
  } catch {
    return [];
  }
}
