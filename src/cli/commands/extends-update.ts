import { EXIT_CODES } from '../../core/errors.ts';
import { DEFAULT_SOURCE_PATH, EXTENDS_LOCK_FILE, type LockEntry } from '../../core/extends.ts';
import { hideCredentials } from '../../core/plain-text.ts';
import { ExtendsService, type SourceMove } from '../../service/extends-service.ts';
import { defineCommand } from '../command.ts';
import { diffJson, diffText } from '../../present/diff.ts';
import { emit } from '../render.ts';
import type { DiffResult } from '../../service/review-service.ts';
import { makeStyle } from '../../core/style.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { staleLine } from '../../present/stale-exports.ts';
import { staleExports } from '../stale-exports.ts';
import { ignoredByGit } from '../ignored-by-git.ts';

interface UpdateArgs {
  source?: string[];
  acceptMovedTag?: boolean;
  dryRun?: boolean;
}

export default defineCommand<UpdateArgs>({
  builder: (y) =>
    y
      .positional('source', { type: 'string', array: true, describe: 'the sources to move (default: all)' })
      .option('accept-moved-tag', { type: 'boolean', describe: 'follow a tag that now names another commit (force-pushed at the source)' })
      .option('dry-run', { type: 'boolean', describe: 'report the move without writing the lock' }),
  async run(argv, ctx) {
    const invariants = await ctx.invariants();
    const service = new ExtendsService(invariants);
    // A stop that comes as the lock is written lets it be written whole, then ends the run as the signal asks, not 0.
    const r = await abortOnStopSignals(
      'git was stopped and extends.lock.yaml was not written.',
      (signal) => service.update(argv.source ?? [], { acceptMovedTag: argv.acceptMovedTag ?? false, dryRun: argv.dryRun ?? false, signal }),
      (done) => (done.written ? 'extends.lock.yaml was written.' : 'the sources were checked; extends.lock.yaml was not written.'),
    );
    const s = makeStyle(ctx.color);
    const refused = r.moves.filter((m) => m.movedTag && !argv.acceptMovedTag);
    const stale = r.written ? await staleExports(ctx) : [];
    // The lock is committed with the repository: one git ignores leaves every clone with sources not pinned.
    const ignored = r.written ? await ignoredByGit(invariants.root, [EXTENDS_LOCK_FILE]) : undefined;
    if (ignored)
      ctx.notice(
        `git ignores ${ignored.path} (${ignored.rule}): ${EXTENDS_LOCK_FILE} will not be committed, and a clone will find its sources not pinned; remove that rule, or add \`!${ignored.path}\` after it`,
      );
    emit(
      ctx,
      {
        written: r.written,
        sources: r.moves.map((m) => ({
          name: m.name,
          before: m.before ? shownPin(m.before) : null,
          after: m.after ? shownPin(m.after) : null,
          moved_tag: m.movedTag,
          before_gone: m.beforeGone,
          diff: diffJson(m.diff as DiffResult),
        })),
        stale_exports: stale,
        ignored_by_git: ignored ? { path: ignored.path, rule: ignored.rule } : null,
      },
      () => {
        const lines: string[] = [];
        for (const m of r.moves) {
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
          lines.push(diffText(m.diff as DiffResult, s), '');
        }
        if (refused.length > 0)
          lines.push(
            s.red(
              `Not written: ${refused.map((m) => m.name).join(', ')} moved a tag. Check the change above, then run again with --accept-moved-tag.`,
            ),
          );
        else lines.push(r.written ? 'Wrote extends.lock.yaml.' : 'Dry run: extends.lock.yaml was not written.');
        if (stale.length > 0) lines.push(s.yellow(staleLine(stale)));
        return lines.join('\n');
      },
    );
    return refused.length > 0 ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});

/** A pin as printed: its URL without credentials (the lock keeps the URL config.yaml names). */
function shownPin(pin: LockEntry): LockEntry {
  return { ...pin, url: hideCredentials(pin.url) };
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
