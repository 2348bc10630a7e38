/**
 * The history of one invariant (docs/review.md): `git log` over its file
 * name, following moves between scopes, with the fields each commit changed.
 */
import type { Diagnostic } from '../../core/diagnostics.ts';
import { invariantFieldChanges, type FieldChange } from '../../core/diff.ts';
import { AgentsError, UsageError } from '../../core/errors.ts';
import { normalisePrefix, pickId } from '../../core/id-prefix.ts';
import { classifyPath } from '../../core/layout.ts';
import { MAX_FILE_BYTES } from '../../core/limits.ts';
import type { Scope, ScopedInvariant } from '../../core/model.ts';
import { tooLarge } from '../../core/yaml-file.ts';
import { NULL_SHA, globLiteral, logRaw, type LogCommit, type RawChange } from '../../git/log.ts';
import { topLevelAndShallow } from '../../git/repo.ts';
import { catFileBatch } from '../../git/object-reader.ts';
import { gitFailure, storePrefix } from './ranges.ts';

/** One commit's change to an invariant. */
export interface LogEvent {
  commit: string;
  author: string;
  email: string;
  /** ISO 8601 author date. */
  date: string;
  subject: string;
  change: 'added' | 'edited' | 'moved' | 'removed';
  /** Store-relative path after the change (the removed path, for removals). */
  path: string;
  scope: Scope;
  fromPath?: string;
  fromScope?: Scope;
  /** The text after the change (before it, for removals). */
  text?: string;
  /** Fields that changed (edits and moves). */
  fields: FieldChange[];
  /** The file as committed was invalid here (its first problem). */
  invalid?: Diagnostic;
}

export interface LogResult {
  id: string;
  /** Its history removed every file that held it. */
  deleted: boolean;
  /** Where it lives at the newest commit that touched it (absent when deleted). */
  path?: string;
  /** The repository is a shallow clone: history may stop early. */
  shallow: boolean;
  /** Newest first. */
  events: LogEvent[];
}

/** The history of one invariant (an id or a unique prefix) of the store at `root`, newest first, following moves between scopes. */
export async function invariantLog(root: string, idOrPrefix: string): Promise<LogResult> {
  const want = normalisePrefix(idOrPrefix);
  // Not an id or a prefix of one: the rule's own usage error.
  if (want === undefined) return pickId(idOrPrefix, [], 'invariant', '') as never;
  // One git process names the top folder and whether history may stop early (a shallow clone).
  const { top, shallow } = await topLevelAndShallow(root).catch((error: unknown) => gitFailure(error));
  const prefix = storePrefix(root, top);
  const base = prefix === '' ? '' : `${prefix}/`;
  let commits: LogCommit[];
  try {
    // The id stays in the file name wherever the file moves: one glob finds every scope it lived in.
    commits = await logRaw(top, [`:(glob)${globLiteral(base)}**/${want}*.yaml`]);
  } catch (error) {
    // Said by git's runner already (a partial clone's remote out of reach, a repository git refuses): kept whole.
    if (error instanceof AgentsError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/does not have any commits|bad default revision/.test(message)) commits = [];
    else throw new UsageError(`git log failed: ${message.trim()}`);
  }
  type Hit = RawChange & { id: string; scope: Scope };
  const perCommit: { c: LogCommit; hits: Hit[] }[] = [];
  const ids = new Set<string>();
  for (const c of commits) {
    const hits: Hit[] = [];
    for (const ch of c.changes) {
      if (!ch.path.startsWith(base)) continue;
      const rel = ch.path.slice(base.length);
      const kind = classifyPath(rel);
      if (kind.kind !== 'invariant' || !kind.id.startsWith(want)) continue;
      ids.add(kind.id);
      const hit: Hit = { ...ch, path: rel, id: kind.id, scope: kind.scope };
      // A merge's version of a file its first parent lacks and another parent has: an edit of that parent's version.
      const had = ch.oldSha === NULL_SHA ? ch.parents?.find((p) => p.sha !== NULL_SHA) : undefined;
      if (had) Object.assign(hit, { oldSha: had.sha, oldMode: had.mode });
      hits.push(hit);
    }
    if (hits.length > 0) perCommit.push({ c, hits });
  }
  const id = pickId(
    want,
    ids,
    'invariant',
    `Check the id; \`git log\` only sees committed files in ${top} (and a shallow clone only its own commits).`,
  );
  const shas = new Set<string>();
  for (const { hits } of perCommit)
    for (const h of hits)
      if (h.id === id) for (const s of [h.oldSha, h.newSha, ...(h.parents ?? []).map((p) => p.sha)]) if (s !== NULL_SHA) shas.add(s);
  // A merge's parent without the file at this path may hold the id at another it has had (moved on one side, edited
  // on the other): that side's version is asked for at each of them (`commit:path`), in the same batch.
  const paths = new Set(perCommit.flatMap(({ hits }) => hits.filter((h) => h.id === id && !h.path.includes('\n')).map((h) => h.path)));
  const elsewhere = (commit: string, path: string) =>
    [...paths].filter((p) => p !== path).map((p) => ({ name: `${commit}:${base}${p}`, path: p }));
  for (const { c, hits } of perCommit)
    for (const h of hits) {
      if (h.id !== id || h.parents === undefined) continue;
      for (const [k, p] of h.parents.entries()) {
        const parent = c.parents[k];
        if (p.sha === NULL_SHA && parent !== undefined) for (const e of elsewhere(parent, h.path)) shas.add(e.name);
      }
    }
  // Where it lives now is what HEAD holds: the commits of two branches come interleaved by date, so a path the
  // history last wrote on one side (an edit in the old scope) may be one the merge of the other side's move dropped.
  const atHead = (p: string) => `HEAD:${base}${p}`;
  for (const p of paths) shas.add(atHead(p));
  // A version over the limit is answered by its size, never held: a repository's history can hold one of any size.
  const blobs = await catFileBatch(top, [...shas], MAX_FILE_BYTES);
  const { parseInvariant, parseYaml } = await import('../../core/parse.ts');
  /** One version: the invariant, or the first problem of the file as committed and its text when it has one. */
  type Version = { inv?: ScopedInvariant; problem?: Diagnostic; text?: string };
  const parsedAt = (sha: string, mode: string, path: string, scope: Scope): Version => {
    if (sha === NULL_SHA) return {};
    // A link's blob is the path it points to, not a document: said as validate and diff say it.
    if (mode === '120000') return { problem: problemAt(path, 'symlink', 'is a symbolic link; links are never followed inside a store') };
    if (!mode.startsWith('100')) return { problem: problemAt(path, 'not-a-file', 'is not a regular file') };
    const bytes = blobs.get(sha);
    if (bytes === null || bytes === undefined)
      return { problem: problemAt(path, 'file-unreadable', 'its object is missing from the repository') };
    if (typeof bytes === 'number') return { problem: tooLarge(path, bytes) };
    const p = parseInvariant(path, bytes, scope, id);
    if (p.value) return { inv: p.value };
    // An invalid version still says its text when it holds one (a bad severity beside it): shown, as the JSON has it.
    const data = parseYaml(path, bytes).value?.data as { text?: unknown } | null | undefined;
    const text = data !== null && typeof data === 'object' && typeof data.text === 'string' ? data.text : undefined;
    return { ...(p.diagnostics[0] ? { problem: p.diagnostics[0] } : {}), ...(text !== undefined ? { text } : {}) };
  };
  // Oldest first, so that each version is compared with the last valid one before it.
  const perCommitEvents: LogEvent[][] = [];
  let lastValid: ScopedInvariant | undefined;
  for (const { c, hits } of [...perCommit].reverse()) {
    const mine = hits.filter((h) => h.id === id);
    if (mine.length === 0) continue;
    const events: LogEvent[] = [];
    const gone = mine.filter((h) => h.newSha === NULL_SHA);
    const born = mine.filter((h) => h.oldSha === NULL_SHA);
    const edits = mine.filter((h) => h.oldSha !== NULL_SHA && h.newSha !== NULL_SHA);
    const head = { commit: c.commit, author: c.author, email: c.email, date: c.date, subject: c.subject };
    const event = (change: LogEvent['change'], from: Hit | undefined, to: Hit | undefined): void => {
      const at = (to ?? from)!;
      const b = from ? parsedAt(from.oldSha, from.oldMode, from.path, from.scope) : {};
      const a = to ? parsedAt(to.newSha, to.newMode, to.path, to.scope) : {};
      // A version after an invalid one is compared with the last valid version: what changed since it was last valid.
      const before = b.inv ?? (change === 'added' ? undefined : lastValid);
      let fields = before && a.inv ? invariantFieldChanges(before, a.inv).filter((f) => f.field !== 'scope') : [];
      // A new form of the same invariant (line ends, a byte order mark, comments, quoting) changes none of its fields:
      // not an edit, as `invariant diff` reports no change for it.
      if (change === 'edited' && b.inv && a.inv && fields.length === 0) {
        lastValid = a.inv;
        return;
      }
      if (change === 'edited' && to?.parents && a.inv && fields.length > 0) {
        // A merge's own change is a field it made differ from every side: a value it took from another parent is the
        // change of that side's commits, listed at them.
        const merged = a.inv;
        const side = (p: { mode: string; sha: string }, k: number): ScopedInvariant | undefined => {
          if (p.sha === to.oldSha) return undefined;
          if (p.sha !== NULL_SHA) return parsedAt(p.sha, p.mode, to.path, to.scope).inv;
          const parent = c.parents[k];
          const found = parent === undefined ? undefined : elsewhere(parent, to.path).find((e) => blobs.get(e.name) instanceof Buffer);
          const kind = found && classifyPath(found.path);
          return found && kind?.kind === 'invariant' ? parsedAt(found.name, '100644', found.path, kind.scope).inv : undefined;
        };
        const sides = to.parents.map(side).filter((v): v is ScopedInvariant => v !== undefined);
        fields = fields.filter((f) => sides.every((side) => invariantFieldChanges(side, merged).some((g) => g.field === f.field)));
        if (fields.length === 0) {
          lastValid = merged;
          return;
        }
      }
      const e: LogEvent = { ...head, change, path: at.path, scope: at.scope, fields };
      if (change === 'moved' && from) {
        e.fromPath = from.path;
        e.fromScope = from.scope;
      }
      const text = change === 'removed' ? (b.inv?.text ?? b.text ?? lastValid?.text) : (a.inv?.text ?? a.text ?? b.inv?.text ?? b.text);
      if (text !== undefined) e.text = text;
      // Whether this commit's version is invalid: never the problem of the version before it.
      if (change !== 'removed' && a.problem) e.invalid = a.problem;
      if (a.inv) lastValid = a.inv;
      events.push(e);
    };
    while (gone.length > 0 && born.length > 0) event('moved', gone.shift()!, born.shift()!);
    for (const h of born) event('added', undefined, h);
    for (const h of edits) event('edited', h, h);
    for (const h of gone) event('removed', h, undefined);
    perCommitEvents.push(events);
  }
  const events = perCommitEvents.reverse().flat();
  // Where it lives: the newest path written that HEAD still holds (a copy removed while another stays, as a move
  // made in two commits leaves it, keeps the invariant in the store).
  const live = new Set([...paths].filter((p) => blobs.has(atHead(p)) && blobs.get(atHead(p)) !== null));
  const now = events.find((e) => e.change !== 'removed' && live.has(e.path));
  return {
    id,
    deleted: events.length > 0 && live.size === 0,
    ...(now ? { path: now.path } : {}),
    shallow,
    events,
  };
}

/** A problem of a whole file as committed (line and column 0). */
function problemAt(path: string, code: Diagnostic['code'], what: string): Diagnostic {
  return { code, severity: 'error', file: path, line: 0, col: 0, message: `${path} ${what}` };
}
