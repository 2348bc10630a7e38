/**
 * The history of one invariant (docs/review.md): `git log` over its file
 * name, following moves between scopes, with the fields each commit changed.
 */
import { relative, sep } from 'node:path';
import type { Diagnostic } from '../../core/diagnostics.ts';
import { invariantFieldChanges, type FieldChange } from '../../core/diff.ts';
import { UsageError } from '../../core/errors.ts';
import { normalisePrefix, pickId } from '../../core/id-prefix.ts';
import { classifyPath } from '../../core/layout.ts';
import type { Scope, ScopedInvariant } from '../../core/model.ts';
import { NULL_SHA, catFileBatch, logRaw, topLevelAndShallow, type LogCommit } from '../../git/repo.ts';
import { gitFailure } from './ranges.ts';

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
  /** The last commit in its history removed it. */
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
  const prefix = relative(top, root).split(sep).join('/');
  const base = prefix === '' ? '' : `${prefix}/`;
  let commits: LogCommit[];
  try {
    // The id stays in the file name wherever the file moves: one glob finds every scope it lived in.
    commits = await logRaw(top, [`:(glob)${base}**/${want}*.yaml`]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/does not have any commits|bad default revision/.test(message)) commits = [];
    else throw new UsageError(`git log failed: ${message.trim()}`);
  }
  type Hit = { status: string; oldSha: string; newSha: string; path: string; id: string; scope: Scope };
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
      hits.push({ ...ch, path: rel, id: kind.id, scope: kind.scope });
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
    for (const h of hits) if (h.id === id) for (const s of [h.oldSha, h.newSha]) if (s !== NULL_SHA) shas.add(s);
  const blobs = await catFileBatch(top, [...shas]);
  const { parseInvariant } = await import('../../core/parse.ts');
  const parsedAt = (sha: string, path: string, scope: Scope): { inv?: ScopedInvariant; problem?: Diagnostic } => {
    if (sha === NULL_SHA) return {};
    const bytes = blobs.get(sha);
    if (!bytes)
      return {
        problem: {
          code: 'file-unreadable',
          severity: 'error',
          file: path,
          line: 0,
          col: 0,
          message: `${path}: its object is missing from the repository`,
        },
      };
    const p = parseInvariant(path, bytes, scope, id);
    return p.value ? { inv: p.value } : p.diagnostics[0] ? { problem: p.diagnostics[0] } : {};
  };
  const events: LogEvent[] = [];
  for (const { c, hits } of perCommit) {
    const mine = hits.filter((h) => h.id === id);
    if (mine.length === 0) continue;
    const gone = mine.filter((h) => h.newSha === NULL_SHA);
    const born = mine.filter((h) => h.oldSha === NULL_SHA);
    const edits = mine.filter((h) => h.oldSha !== NULL_SHA && h.newSha !== NULL_SHA);
    const head = { commit: c.commit, author: c.author, email: c.email, date: c.date, subject: c.subject };
    const event = (
      change: LogEvent['change'],
      path: string,
      scope: Scope,
      fromPath?: string,
      fromScope?: Scope,
      oldSha = NULL_SHA,
      newSha = NULL_SHA,
    ): void => {
      const b = fromPath !== undefined && fromScope ? parsedAt(oldSha, fromPath, fromScope) : parsedAt(oldSha, path, scope);
      const a = parsedAt(newSha, path, scope);
      const e: LogEvent = {
        ...head,
        change,
        path,
        scope,
        fields: b.inv && a.inv ? invariantFieldChanges(b.inv, a.inv).filter((f) => f.field !== 'scope') : [],
      };
      if (fromPath !== undefined) e.fromPath = fromPath;
      if (fromScope) e.fromScope = fromScope;
      const shown = a.inv ?? b.inv;
      if (shown) e.text = shown.text;
      const problem = a.problem ?? (change === 'removed' ? undefined : b.problem);
      if (problem) e.invalid = problem;
      events.push(e);
    };
    while (gone.length > 0 && born.length > 0) {
      const from = gone.shift()!;
      const to = born.shift()!;
      event('moved', to.path, to.scope, from.path, from.scope, from.oldSha, to.newSha);
    }
    for (const h of born) event('added', h.path, h.scope, undefined, undefined, NULL_SHA, h.newSha);
    for (const h of edits) event('edited', h.path, h.scope, undefined, undefined, h.oldSha, h.newSha);
    for (const h of gone) event('removed', h.path, h.scope, undefined, undefined, h.oldSha, NULL_SHA);
  }
  const latest = events[0];
  return {
    id,
    deleted: latest?.change === 'removed',
    ...(latest && latest.change !== 'removed' ? { path: latest.path } : {}),
    shallow,
    events,
  };
}
