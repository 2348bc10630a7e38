import { AgentsError, EXIT_CODES, UsageError } from '../../core/errors.ts';
import { relative, sep } from 'node:path';
import { agentsHints, type Diagnostic, type RelatedLocation } from '../../core/diagnostics.ts';
import { evaluateGuards, type GuardIndex, type GuardRule, patternsNeeded } from '../../core/guard.ts';
import { GuardMatchers } from '../../core/guard-matchers.ts';
import { guardReason, waiveCommand } from '../../core/guard-reason.ts';
import { physicalPath } from '../../service/link-paths.ts';
import type { ValidationResult } from '../../validate/result.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { emptyResult, hookStore } from '../hook-store.ts';
import { safeText } from '../safe-output.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { envSwitchOn } from '../../core/env-switch.ts';
import { VERSION } from '../../present/version.ts';

interface CheckArgs {
  range?: string;
  staged?: boolean;
  format?: string;
}

/** `to` relative to `from`, as a prefix of the paths under it (`.agents/`, `../`), or '' for the same folder. */
function prefixOf(from: string, to: string): string {
  const rel = relative(from, to).split(sep).join('/');
  return rel === '' ? '' : `${rel}/`;
}

/**
 * Where the invariant of a hit is kept, relative to the repository's top as the changed file is: the findings' paths
 * share one base, so a SARIF upload or an editor finds the invariant's file. A policy source's file is in no tree of
 * this repository, so it is named with its source (`source`), as validate names such a file.
 */
function ruleLocation(rule: GuardRule, storePrefix: string): RelatedLocation {
  const message = `invariant ${rule.id}`;
  const source = /^inherited (.+)$/.exec(rule.scope)?.[1];
  if (source !== undefined) return { file: rule.path, line: 0, col: 0, message, source };
  return { file: storePrefix + rule.path, line: 0, col: 0, message };
}

export default defineCommand<CheckArgs>({
  builder: (y) =>
    y
      .positional('range', {
        type: 'string',
        describe:
          'a revision range such as main...HEAD, a branch since it left main (default with no --staged: HEAD against the working tree)',
      })
      .option('staged', { type: 'boolean', describe: 'check what is staged for the next commit (the pre-commit hook)' })
      .option('format', {
        choices: ['github', 'sarif'],
        requiresArg: true,
        describe: 'output format: text, json, yaml, github (workflow-command annotations) or sarif (SARIF 2.1.0)',
      })
      .conflicts('staged', 'range'),
  async run(given, ctx) {
    // The range read as invariant diff reads it, without the blanks around it (a YAML block's last newline), which git
    // would refuse as part of a revision's name.
    const argv = given.range === undefined ? given : { ...given, range: given.range.trim() };
    // As validate --staged: a commit of a branch without the store, or one that removes it, has no guard to break; nor
    // has a range that removes it (the pull request's diff reports every invariant it held as removed).
    const found = argv.staged ? await hookStore(ctx) : await ctx.root().catch((error: unknown) => removedStore(ctx, argv.range, error));
    const source = argv.staged ? 'index' : `diff ${argv.range ?? 'HEAD'}`;
    const result = typeof found === 'string' ? await checkChanges(found, argv, ctx) : emptyResult(found.place, source);
    const format = argv.format ?? ctx.format;
    const rename = (t: string) => t.replace(/agents validate:/g, 'agents guard check:');
    // A path is the repository's, written by anyone (an agent too): its control characters leave escaped, as validate's
    // output does (docs/store-format.md, "Plain text only").
    const plain = (t: string) => escapeUnsafe(t, { newlines: true });
    if (format === 'sarif') ctx.io.stdout.write(plain((await import('../../validate/format-sarif.ts')).formatSarif(result, VERSION)));
    else if (format === 'github')
      // Workflow commands are this format's own lines (their values escaped by formatGithub): not escaped as text's are.
      ctx.io.stdout.write(plain(rename((await import('../../validate/format-github.ts')).formatGithub(result).log)));
    else if (format === 'json') ctx.io.stdout.write(plain((await import('../../validate/format-json.ts')).formatJson(result)));
    else if (format === 'yaml') {
      // The document of `validate --format yaml`: the JSON's data, written as YAML (toYaml escapes what it writes).
      const [{ toYaml }, { validateJson }] = await Promise.all([import('../yaml-output.ts'), import('../../validate/format-json.ts')]);
      ctx.io.stdout.write(toYaml(validateJson(result)));
    } else ctx.io.stdout.write(safeText(rename((await import('../../validate/format-text.ts')).formatText(result, ctx.style)), ctx.color));
    return result.ok ? EXIT_CODES.ok : EXIT_CODES.checkFailed;
  },
});

/**
 * Where the working tree holds no store: for a range that ends at a commit holding one at the store's place (the store
 * removed since), that place, judged by the commit's guards as any such range is; where the range's diff removes the
 * store (a pull request that deletes it, checked in CI on its merge commit), `{ place }`, as hookStore answers for a
 * commit that removes it, since the side checked holds no guard. Otherwise, and when the index still holds the store
 * (its folder deleted by accident), the error of the search is thrown.
 */
async function removedStore(ctx: CliContext, range: string | undefined, error: unknown): Promise<string | { place: string }> {
  if (!(error instanceof UsageError)) throw error;
  const [{ storePlaceAtRevisions }, { diffFiles }, { indexHolds }, { GitError }, { lsTree }, { parentRange, rangeEnd }] = await Promise.all(
    [
      import('../../store/discover.ts'),
      import('../../git/diff.ts'),
      import('../../git/changed.ts'),
      import('../../git/repo.ts'),
      import('../../git/file-listing.ts'),
      import('../../service/review/ranges.ts'),
    ],
  );
  const at = storePlaceAtRevisions({ store: ctx.store, env: ctx.io.env, cwd: ctx.io.cwd });
  const rel = at === undefined ? '' : relative(at.top, at.root).split(sep).join('/');
  if (at === undefined || rel === '' || rel.startsWith('..')) throw error;
  try {
    if (await indexHolds(at.top, rel)) throw error;
    // Asked while git diffs; the diff's failure, awaited first, is the one said.
    const ending = range === undefined ? undefined : rangeEnd(at.top, range);
    ending?.catch(() => undefined);
    const files = await diffFiles(at.top, { range: parentRange(range) ?? 'HEAD' });
    const end = await ending;
    if (end && (await lsTree(at.top, end.commit, rel)).length > 0) return at.root;
    if (files.some((f) => f.path.startsWith(`${rel}/`))) return { place: at.root };
  } catch (failure) {
    // A range git cannot read is said by the search's error: with no store there is nothing to judge it by.
    if (failure instanceof GitError) throw error;
    throw failure;
  }
  throw error;
}

/** The findings of two stores' guards over the same files, each once, in the order of the files. */
function bothSides(files: readonly { path: string }[], a: readonly Diagnostic[], b: readonly Diagnostic[]): Diagnostic[] {
  const order = new Map(files.map((f, i) => [f.path, i]));
  const seen = new Map<string, Diagnostic>();
  for (const d of [...a, ...b]) seen.set(JSON.stringify([d.file, d.line, d.severity, d.message]), d);
  return [...seen.values()].sort((x, y) => (order.get(x.file ?? '') ?? 0) - (order.get(y.file ?? '') ?? 0));
}

/** What an unborn branch's check compares: no commit yet, so the working tree's files against the empty tree. */
const UNBORN_SOURCE = 'working tree against the empty tree, no commit yet';

/** The changes (staged, or of a range) judged by the guards of the store at `root`. */
async function checkChanges(root: string, argv: CheckArgs, ctx: CliContext): Promise<ValidationResult> {
  const [{ GuardService }, { diffFiles }, { repoTop }] = await Promise.all([
    import('../../service/guard-service.ts'),
    import('../../git/diff.ts'),
    import('../../store/git-dir.ts'),
  ]);
  // Outside git, `git diff` would compare files (its --no-index form) or fail on the options: said for what it is.
  if (repoTop(root) === undefined) {
    throw new UsageError(
      `not a git repository: ${root}`,
      (await import('../../git/caller-env.ts')).namedRepositoryHint() ??
        `guard check reads the changes from git: run it inside the git repository that holds the store, or judge one action with \`${ctx.agentsCommand()} guard try\`.`,
      undefined,
      'not-a-repository',
    );
  }
  const service = new GuardService(root, ctx.io.env);
  // Asked while git diffs: whether the commit's store is the working tree's (see below).
  const asIndexed = argv.staged
    ? import('../../git/changed.ts').then((git) => git.storeAsIndexed(physicalPath(root), service.top))
    : undefined;
  // Awaited below unless the diff fails first, whose error is then the one said.
  asIndexed?.catch(() => undefined);
  const ranges = argv.staged || argv.range === undefined ? undefined : await import('../../service/review/ranges.ts');
  ranges?.refuseEmptyRange(argv.range);
  // The commit a range ends at, and its time, asked while git diffs: a revision git cannot read is said by the diff's
  // failure below.
  const ending = ranges
    ?.rangeEnd(service.top, argv.range!)
    .then((end) => (end === undefined ? undefined : { ...end, now: service.timeAt(end) }));
  ending?.catch(() => undefined);
  // `A^!` and `A^-N` as invariant diff reads them (A^1..A): git would diff a merge only where it differs from every
  // parent, and a commit with no parent here (a shallow clone's) against the working tree, both passing unseen.
  const range = ranges?.parentRange(argv.range);
  // One revision is one commit against the working tree, resolved as invariant diff resolves it, while git diffs: git
  // reads some single arguments as other revisions (`X^@`, all of X's parents: none in a shallow clone, `^X`). HEAD is
  // one, or none yet on an unborn branch, which diffFiles compares as the empty tree. The sides of a range are peeled
  // to commits for git instead, so a tree there fails the diff and is named below, with no process more.
  const peeled = range === undefined ? undefined : ranges?.peeledRange(range);
  const single = range !== undefined && range !== 'HEAD' && (!range.includes('..') || peeled === undefined);
  const revision = single ? ranges?.checkRange(service.top, range) : undefined;
  revision?.catch(() => undefined);
  // On an unborn branch the diff is against the empty tree, which the result says rather than a HEAD that names nothing.
  const seen: { unborn?: boolean } = {};
  let files: Awaited<ReturnType<typeof diffFiles>>;
  try {
    files = await diffFiles(service.top, argv.staged ? { staged: true } : { range: peeled ?? range ?? 'HEAD' }, undefined, seen);
  } catch (error) {
    // Said by git's runner already (no git at all, a disk that is full): never read as a bad range.
    if (error instanceof AgentsError) throw error;
    // A revision that is not here (a shallow clone in CI) is named, with how to fetch it, as invariant diff names it.
    if (ranges) await ranges.checkRange(service.top, argv.range!);
    throw new UsageError(
      `git diff failed: ${(error as Error).message.split('\n')[0]}`,
      'Name a revision range such as main...HEAD (a branch since it left main), or use --staged.',
    );
  }
  await revision;
  const actions = files.map((f) => ({
    tool: 'git',
    files: [f.path],
    texts: f.added.length > 0 ? [f.added.map((a) => a.text).join('\n')] : [],
  }));
  // The index, checked against the folders of every changed file's projects at once, then each file judged by it.
  const storePrefix = prefixOf(service.top, physicalPath(root));
  // A plan a waiver is written to is made active by `plan activate` where someone works in the clone; in CI (or where
  // no terminal runs the check) the clone is fresh and holds none, and AGENTS_PLAN is the way. Asked only for a hint
  // that names it: reading stderr's isTTY makes its stream, which a clean check never needs.
  const activation = () => (envSwitchOn(ctx.io.env, 'CI') || !(ctx.io.stdout.isTTY || ctx.io.stderr.isTTY) ? 'environment' : 'activate');
  const judge = async (index: GuardIndex, now = service.clock()) => {
    const { plan } = index;
    const needed = actions.some((a) => patternsNeeded(index, a));
    const matchers = new GuardMatchers(needed ? (await import('../../core/guard-patterns.ts')).compileRegex : undefined);
    const diagnostics: Diagnostic[] = [];
    for (const [n, f] of files.entries()) {
      const verdict = evaluateGuards(index, actions[n]!, now, matchers);
      for (const h of verdict.hits) {
        if (h.waived) continue;
        // A content hit points at the first added line that matches on its own (else the first added line).
        const at = h.kind === 'content' ? (f.added.find((a) => matchers.regex(h.entry)(a.text)) ?? f.added[0]) : undefined;
        diagnostics.push({
          code: 'guard-violation',
          severity: h.rule.severity,
          file: f.path,
          line: at?.line ?? 0,
          col: at ? 1 : 0,
          message: guardReason(h, plan, index.planProject)
            .replace(/^Blocked by/, 'Forbidden by')
            .replace(/ To waive it:.*$/, '')
            .replace(/ It is a locked floor.*$/, ''),
          // Code spans: the presenter starts them with the run's agents and --store (agentsHints), as every hint's command.
          hint: h.rule.locked
            ? 'A locked floor of a policy source: undo the change.'
            : `Undo the change, or waive it: ${waiveCommand(h, plan, index.planProject, (c) => `\`${c}\``, 'agents', activation())}.`,
          related: [ruleLocation(h.rule, storePrefix)],
        });
      }
    }
    return diagnostics;
  };
  let diagnostics: Diagnostic[];
  const end = await ending;
  if (end) {
    // A range that ends at a commit (A..B, A...B) is judged by the guards the store held there, and the waivers that
    // held when it was made, as a reviewer of those changes reads them (docs/guard.md), not by today's.
    diagnostics = await judge(await service.indexAt(end, end.now), end.now);
  } else {
    diagnostics = await service.judged({ tool: 'git', files: files.map((f) => f.path), texts: [] }, judge);
    // The commit records the index's store: where the working tree's differs (a guard's file removed, a waiver written,
    // by a shell without `git add`), the guards of both judge it, so that neither a change left unstaged nor a guard
    // not yet staged lets it through.
    if (asIndexed && !(await asIndexed)) diagnostics = bothSides(files, diagnostics, await judge(await service.indexAt('index')));
  }
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  const result: ValidationResult = {
    // The store whose guards judged the diff, as validate names its store (and as a range that removed it names its place).
    store: root,
    source: argv.staged ? 'index' : seen.unborn ? UNBORN_SOURCE : `diff ${argv.range ?? 'HEAD'}`,
    files: files.length,
    // The commands the hints name carry the run's --store, as validate's do.
    diagnostics: diagnostics.map(agentsHints(ctx.agentsCommand())),
    fixes: [],
    strict: false,
    ok: counts.error === 0,
    counts,
    // `file` is relative to the repository's top; `path` and the text to the current folder, as validate's are.
    displayPrefix: prefixOf(physicalPath(ctx.io.cwd), service.top),
    repoPrefix: '',
  };
  return result;
}
