// The shapes `agents extends fetch` and `agents extends update` print (docs/json-output.md): the sources fetched, and
// the pins each update moved with the report of the move; built here so that the command only gathers what was done.
import { DEFAULT_SOURCE_PATH, type LockEntry } from '../core/extends.ts';
import { escapeUnsafe, hideCredentials } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import type { SourceMove, UpdateResult } from '../service/extends-service.ts';
import type { DiffResult } from '../service/review-service.ts';
import type { FetchOutcome } from '../store/extends-fetch.ts';
import { diffJson, diffText } from './diff.ts';
import { staleLine } from './stale-exports.ts';

/** The JSON of `extends fetch`: each source, its commit, fetched or cached, and what of it is never read. */
export function fetchedJson(outcomes: readonly FetchOutcome[]) {
  return outcomes.map((o) => ({
    name: o.name,
    commit: o.commit,
    status: o.status,
    ignored: o.ignored,
    not_inherited: notInheritedJson(o),
  }));
}

/** The sources a source pins itself that config.yaml does not list, their URLs without credentials. */
function notInheritedJson(o: FetchOutcome | undefined) {
  return (o?.extends ?? []).map((e) => ({ name: e.name, url: hideCredentials(e.url), ref: e.ref }));
}

/**
 * Said of a source that pins sources of its own: only its global/ and actions/ are read, so what they hold is not
 * inherited through it, which a team that layers policy (an organisation's under a platform's) would otherwise miss.
 */
function notInheritedLine(s: Style, o: FetchOutcome | undefined, indent: string): string[] {
  if (!o || o.extends.length === 0) return [];
  // Names and URLs are the source's own lock's: a newline there must not print a line of its own.
  const named = o.extends.map((e) => escapeUnsafe(`${e.name} (${hideCredentials(e.url)} at ${e.ref})`)).join(', ');
  return [
    s.yellow(
      `${indent}not inherited: ${o.name} itself extends ${named}; only its own global/ and actions/ are read: add ${o.extends.length === 1 ? 'it' : 'them'} to extends in config.yaml to inherit ${o.extends.length === 1 ? 'its' : 'their'} invariants`,
    ),
  ];
}

export function fetchedText(s: Style, outcomes: readonly FetchOutcome[]): string {
  // A store that extends nothing (or, at --rev, pins none of what it names) fetches nothing, exit 0: said, rather than
  // a run that prints nothing at all.
  if (outcomes.length === 0) return "Nothing to fetch: config.yaml's `extends` names no pinned policy source.";
  return outcomes
    .flatMap((o) => [
      `${o.status === 'fetched' ? s.green('fetched') : s.dim('cached ')}  ${o.name}  ${o.commit}`,
      ...(o.ignored.length > 0
        ? [
            s.dim(
              // A name of the source's may hold a newline, which would print a line of its own (a forged "fetched" line).
              `         ignored (never read or run): ${o.ignored.map((n) => escapeUnsafe(o.ignoredFolders.includes(n) ? `${n}/` : n)).join(', ')}`,
            ),
          ]
        : []),
      ...notInheritedLine(s, o, '         '),
    ])
    .join('\n');
}

/**
 * What `extends update` did: the service's result, the moves whose moved tag was refused (without --accept-moved-tag),
 * the exported files the written lock made stale, and the rule by which git ignores the lock, if one does.
 */
export interface UpdateReport {
  result: UpdateResult;
  refused: readonly SourceMove[];
  stale: readonly string[];
  ignored?: { path: string; rule: string };
}

/** A pin as printed: its URL without credentials (the lock keeps the URL config.yaml names). */
function shownPin(pin: LockEntry): LockEntry {
  return { ...pin, url: hideCredentials(pin.url) };
}

/** The JSON of `extends update`: whether the lock was written, each source's pins and diff, the stale exports. */
export function updateJson(u: UpdateReport) {
  return {
    written: u.result.written,
    sources: u.result.moves.map((m) => ({
      name: m.name,
      before: m.before ? shownPin(m.before) : null,
      after: m.after ? shownPin(m.after) : null,
      moved_tag: m.movedTag,
      before_gone: m.beforeGone,
      not_inherited: notInheritedJson(u.result.fetched.find((f) => f.name === m.name)),
      diff: diffJson(m.diff as DiffResult),
    })),
    stale_exports: u.stale,
    ignored_by_git: u.ignored ? { path: u.ignored.path, rule: u.ignored.rule } : null,
  };
}

/** `agents`: the start of a command to paste, with the run's --store (CliContext.agentsCommand). */
export function updateText(s: Style, u: UpdateReport, agents = 'agents'): string {
  const lines: string[] = [];
  for (const m of u.result.moves) {
    lines.push(s.bold(moveLine(m)));
    if (m.movedTag)
      lines.push(
        s.red(
          m.after!.kind === 'tag'
            ? `  the tag ${m.after!.ref} was moved at the source: it named ${m.before!.commit}, it now names ${m.after!.commit}`
            : `  the tag ${m.after!.ref} is gone at the source (it named ${m.before!.commit}); ${m.after!.ref} now names the ${m.after!.kind} at ${m.after!.commit}`,
        ),
      );
    if (m.beforeGone)
      lines.push(
        s.yellow(
          `  the commit it moved from (${m.before!.commit.slice(0, 12)}) could not be fetched (the source no longer holds it, or its old URL does not answer): the report counts the move as a first pin`,
        ),
      );
    lines.push(...notInheritedLine(s, m.after ? u.result.fetched.find((f) => f.name === m.name) : undefined, '  '));
    lines.push(diffText(m.diff as DiffResult, s), '');
  }
  if (u.refused.length > 0)
    lines.push(
      s.red(
        `Not written: ${u.refused.map((m) => m.name).join(', ')} moved a tag. Check the change above, then run again with --accept-moved-tag.`,
      ),
    );
  else lines.push(u.result.written ? 'Wrote extends.lock.yaml.' : 'Dry run: extends.lock.yaml was not written.');
  if (u.stale.length > 0) lines.push(s.yellow(staleLine(u.stale, agents)));
  return lines.join('\n');
}

function moveLine(m: SourceMove): string {
  const pinned = (p: LockEntry) => (p.kind === 'commit' ? p.commit.slice(0, 12) : `${p.ref} (${p.commit.slice(0, 12)})`);
  if (!m.after) return `Policy source ${m.name}: removed from extends (was at ${pinned(m.before!)})`;
  const to = pinned(m.after);
  if (!m.before) return `Policy source ${m.name}: pinned to ${to}`;
  // Another remote under the same name (a mirror, a fork) is said, whether or not the commit moved.
  const url = m.before.url === m.after.url ? '' : `, now from ${hideCredentials(m.after.url)} (was ${hideCredentials(m.before.url)})`;
  // Another store folder at the same commit is another set of files: never "unchanged".
  const [pathBefore, pathAfter] = [m.before.path ?? DEFAULT_SOURCE_PATH, m.after.path ?? DEFAULT_SOURCE_PATH];
  const path = pathBefore === pathAfter ? '' : `, now from the folder ${pathAfter} (was ${pathBefore})`;
  if (m.before.commit === m.after.commit && m.before.ref === m.after.ref)
    return `Policy source ${m.name}: ${path === '' ? 'unchanged at' : 'at'} ${to}${url}${path}`;
  return `Policy source ${m.name} moved from ${pinned(m.before)} to ${to}${url}${path}`;
}
