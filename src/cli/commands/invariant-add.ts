import { loadTui } from '../tui-loader.ts';
import { EXIT_CODES, missingArgument, UsageError } from '../../core/errors.ts';
import { quoteText } from '../../core/plain-text.ts';
import { SEVERITIES, type Severity } from '../../core/model.ts';
import type { AddResult } from '../../service/invariant-service.ts';
import { tuiIo } from '../interactive.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';
import { addedJson, addedText, writtenUnreadText } from '../../present/invariant-write.ts';
import { guardFromArgs, guardOptions, type GuardArgs } from '../guard-options.ts';
import { inferProject, scopeFromArgs, scopeOptions, type ScopeArgs } from '../scope-options.ts';

interface AddArgs extends ScopeArgs, GuardArgs {
  text?: string[];
  severity?: Severity;
  tag?: string[];
  rationale?: string;
  commit?: boolean;
  'new-project'?: boolean;
}

export default defineCommand<AddArgs>({
  builder: (y) =>
    guardOptions(scopeOptions(y, 'add to'), 'guard:')
      .positional('text', { type: 'string', array: true, describe: 'the constraint, in natural language' })
      .option('severity', {
        choices: [...SEVERITIES],
        requiresArg: true,
        default: 'error',
        describe: 'how much a violation of it weighs (an error one fails the plan gate)',
      })
      .option('tag', { type: 'string', array: true, nargs: 1, requiresArg: true, describe: 'a tag (repeatable: --tag data --tag safety)' })
      .option('rationale', { type: 'string', requiresArg: true, describe: 'why the invariant exists, for reviewers' })
      .option('commit', { type: 'boolean', describe: 'commit the new file with git (default: commit: in config.yaml)' })
      .option('new-project', {
        type: 'boolean',
        describe: "create --project P even when its name is close to an existing project's (else refused as a likely typo)",
      }),
  async run(argv, ctx) {
    refuseTextInPieces(argv.text ?? [], ctx.words);
    const text = (argv.text ?? []).join(' ');
    const service = await ctx.invariants();
    let result: AddResult | undefined;
    if ((argv.text ?? []).length === 0) {
      if (!ctx.interactive) {
        throw missingArgument(
          'no invariant text given',
          `Give the text as the last argument: ${ctx.agentsCommand()} invariant add --global "Never delete production data".`,
          'invariant add',
          'text',
        );
      }
      // No text at a terminal: the form asks for what the flags did not give, starting from the flags' values.
      const given = scopeFromArgs(argv, false);
      const scope = given ? await service.resolveScope(given) : undefined;
      // A likely typo of a project, or a policy source's template, is refused before the form opens, not after the text is typed.
      if (scope?.kind === 'project') await service.checkNewProject(scope.project, argv['new-project'] ?? false);
      if (scope) (await import('../../service/invariant-service.ts')).requireOwnScope(scope, service.optionWords);
      const { runAddForm } = await loadTui();
      result = await ctx.onScreen(() =>
        runAddForm(tuiIo(ctx), service, {
          ...(scope ? { scope } : {}),
          initial: {
            ...(argv.severity !== undefined ? { severity: argv.severity } : {}),
            ...(argv.tag !== undefined ? { tags: argv.tag.map(String) } : {}),
            ...(argv.rationale !== undefined ? { rationale: argv.rationale } : {}),
          },
          ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
          ...(argv['new-project'] ? { newProject: true } : {}),
        }),
      );
      if (!result) {
        ctx.io.stderr.write('Nothing added.\n');
        return EXIT_CODES.checkFailed;
      }
    } else {
      // A refused duplicate is exit 1 with code `duplicate`; main prints it (as JSON under --format json).
      let given = scopeFromArgs(argv, false);
      if (!given) {
        const project = await inferProject(ctx, service);
        if (project !== undefined) given = { project };
      }
      const scope = given ?? scopeFromArgs(argv, true, 'invariant add')!;
      result = await service.add({
        scope,
        text,
        severity: argv.severity,
        tags: argv.tag ?? [],
        rationale: argv.rationale,
        ...(guardFromArgs(argv) ? { guard: guardFromArgs(argv)! } : {}),
        ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
        ...(argv['new-project'] ? { newProject: true } : {}),
      });
    }
    if (result.createdProject !== undefined) ctx.notice(`created project ${result.createdProject} (projects/${result.createdProject}/)`);
    // On stderr in every format, as show says it: the notes are of the files read, JSON saying it in `incomplete` too.
    const unread = writtenUnreadText(result, ctx.agentsCommand());
    if (unread) ctx.notice(unread);
    emit(ctx, addedJson(result, ctx.agentsCommand()), () => addedText(ctx.style, result));
    return EXIT_CODES.ok;
  },
});

/**
 * Refuses a text whose words do not stand together among the run's words (`add --global No secrets --guard-write
 * apps/web/*`, the glob expanded by the shell into two file names): the second file name would be read as the end of
 * the text, and the guard as the first file alone. Words after `--` stand with those before it; a later `--` is a word
 * of the text (`-- a -- b` is the text "a -- b").
 */
export function refuseTextInPieces(pieces: readonly string[], words: readonly string[]): void {
  if (pieces.length < 2 || words.length === 0) return;
  const end = words.indexOf('--');
  const given = end === -1 ? words : [...words.slice(0, end), ...words.slice(end + 1)];
  const together = given.some((_, start) => pieces.every((p, i) => given[start + i] === p));
  if (together) return;
  throw new UsageError(
    `the invariant text is given in pieces with options between them: ${pieces.map((p) => quoteText(p)).join(', ')}`,
    (agents) =>
      `Quote the whole text, and quote globs so that the shell does not turn them into file names: ${agents} invariant add --global "Never push to main" --guard-write 'apps/web/*'.`,
    { pieces: [...pieces] },
    'text-in-pieces',
  );
}
