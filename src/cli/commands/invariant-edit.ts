import { loadTui } from '../tui-loader.ts';
import { conflictingOptions, EXIT_CODES, missingOption } from '../../core/errors.ts';
import { SEVERITIES, type Severity } from '../../core/model.ts';
import type { EditInput, EditResult } from '../../service/invariant-service.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { guardFromArgs, guardOptions, type GuardArgs } from '../guard-options.ts';
import { tuiIo } from '../interactive.ts';
import { emit } from '../render.ts';
import { editedJson, editedText, strandedNotes, writtenUnreadText } from '../../present/invariant-write.ts';

interface EditArgs extends GuardArgs {
  id: string;
  text?: string;
  severity?: Severity;
  tag?: string[];
  untag?: string[];
  rationale?: string;
  activate?: boolean;
  deactivate?: boolean;
  overrides?: string;
  'clear-guard'?: boolean;
  commit?: boolean;
}

/** The flags of which an edit outside a terminal needs at least one (every one that changes a field). */
const EDIT_FLAGS = [
  'text',
  'severity',
  'tag',
  'untag',
  'rationale',
  'activate',
  'deactivate',
  'overrides',
  'guard-write',
  'guard-command',
  'guard-content',
  'guard-tool',
  'clear-guard',
];

export default defineCommand<EditArgs>({
  builder: (y) =>
    guardOptions(y, "replace the guard's list with")
      .option('clear-guard', { type: 'boolean', describe: 'remove the guard' })
      .positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' })
      .option('text', { type: 'string', requiresArg: true, describe: 'the new text' })
      .option('severity', { choices: [...SEVERITIES], describe: 'the new severity' })
      .option('tag', { type: 'string', array: true, nargs: 1, describe: 'add a tag (repeatable)' })
      .option('untag', { type: 'string', array: true, nargs: 1, describe: 'remove a tag (repeatable)' })
      .option('rationale', { type: 'string', requiresArg: true, describe: 'the new rationale ("" removes it)' })
      .option('activate', { type: 'boolean', describe: 'apply it again (active: true)' })
      .option('deactivate', { type: 'boolean', describe: 'keep it without applying it (active: false)' })
      .option('overrides', {
        type: 'string',
        requiresArg: true,
        describe: 'the id of the lower-precedence copy of the same text it replaces on purpose ("" removes it)',
      })
      .option('commit', { type: 'boolean', describe: 'commit the change with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const service = await ctx.invariants();
    if (argv.activate && argv.deactivate)
      throw conflictingOptions('give --activate or --deactivate, not both', 'Nothing was changed. Choose one of them.', [
        'activate',
        'deactivate',
      ]);
    const input: EditInput = { id: String(argv.id) };
    if (argv.text !== undefined) input.text = argv.text;
    if (argv.severity !== undefined) input.severity = argv.severity;
    if (argv.tag !== undefined) input.addTags = argv.tag.map(String);
    if (argv.untag !== undefined) input.removeTags = argv.untag.map(String);
    if (argv.rationale !== undefined) input.rationale = argv.rationale;
    if (argv.activate) input.active = true;
    if (argv.deactivate) input.active = false;
    if (argv.activate === false && argv.deactivate === undefined) input.active = false;
    if (argv.deactivate === false && argv.activate === undefined) input.active = true;
    if (argv.overrides !== undefined) input.overrides = argv.overrides;
    const guard = guardFromArgs(argv);
    if (argv['clear-guard'] && guard)
      throw conflictingOptions(
        'give --clear-guard or --guard-* lists, not both',
        'Nothing was changed. --clear-guard removes the guard; --guard-* lists replace it.',
        ['clear-guard', ...Object.keys(guard).map((kind) => `guard-${kind}`)],
      );
    if (argv['clear-guard']) input.guard = null;
    else if (guard) input.guard = guard;
    if (argv.commit !== undefined) input.commit = argv.commit;
    const given = Object.keys(input).filter((k) => k !== 'id' && k !== 'commit');

    let result: EditResult | undefined;
    if (given.length === 0) {
      if (!ctx.interactive) {
        throw missingOption(
          'nothing to change: give at least one of --text, --severity, --tag, --untag, --rationale, --activate, --deactivate, --overrides, --guard-*, --clear-guard',
          `Nothing was changed. E.g. ${ctx.agentsCommand()} invariant edit ${String(argv.id)} --severity warning (in a terminal, without flags, a form opens).`,
          'invariant edit',
          EDIT_FLAGS,
        );
      }
      // Found first, so that a bad id is the usual one-line error, not a form.
      const found = await service.resolveId(String(argv.id));
      const { runEditForm } = await loadTui();
      result = await ctx.onScreen(() =>
        runEditForm(tuiIo(ctx), service, found.id, argv.commit !== undefined ? { commit: argv.commit } : {}),
      );
      if (!result) {
        ctx.io.stderr.write('Nothing changed.\n');
        return EXIT_CODES.checkFailed;
      }
    } else {
      result = await service.edit(input);
    }
    printEdit(ctx, result);
    return EXIT_CODES.ok;
  },
});

function printEdit(ctx: CliContext, r: EditResult): void {
  // On stderr in every format, as add says it: the notes are of the files read.
  const unread = writtenUnreadText(r, ctx.agentsCommand());
  if (unread) ctx.notice(unread);
  for (const note of strandedNotes(r, ctx.agentsCommand())) ctx.notice(note);
  emit(ctx, editedJson(r, ctx.agentsCommand()), () => editedText(ctx.style, r));
}
