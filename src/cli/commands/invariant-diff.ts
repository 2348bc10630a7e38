import { hasChanges } from '../../core/diff.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { boundHeapGrowth } from '../heap.ts';
import { emitDocument, piecesOf } from '../render.ts';
import { safeText } from '../safe-output.ts';
import { writePieces } from '../write-pieces.ts';

interface DiffArgs {
  range?: string;
  project?: string;
  plan?: string;
  'all-projects'?: boolean;
  staged?: boolean;
  format?: string;
  'exit-code'?: boolean;
}

export default defineCommand<DiffArgs>({
  builder: (y) =>
    y
      .positional('range', { type: 'string', describe: 'A..B, A...B (from the merge base), A (against the working tree); default HEAD' })
      .option('project', { type: 'string', requiresArg: true, describe: "only project P's effective set" })
      .option('plan', { type: 'string', requiresArg: true, describe: "only plan ID's effective set" })
      .option('all-projects', { type: 'boolean', describe: 'report every project, changed or not' })
      .option('staged', { type: 'boolean', describe: 'compare with the index (what `git commit` would record)' })
      .option('format', {
        choices: ['markdown'],
        requiresArg: true,
        describe: 'output format: text, json, yaml or markdown (a pull-request comment)',
      })
      .option('exit-code', { type: 'boolean', describe: 'exit 1 when anything changed, 0 when nothing did (as `git diff --exit-code`)' }),
  async run(argv, ctx) {
    // Both sides of a whole store may be read (docs/adr/0071-bounded-memory.md).
    boundHeapGrowth();
    const review = await ctx.review();
    // The formatter loads while git answers.
    const formats = Promise.all([import('../../present/diff.ts'), import('../../present/diff-markdown.ts')]);
    formats.catch(() => undefined);
    const filters = {
      ...(argv.project !== undefined ? { project: String(argv.project) } : {}),
      ...(argv.plan !== undefined ? { plan: String(argv.plan) } : {}),
      allProjects: argv['all-projects'] ?? false,
    };
    const result = await review.diff({
      ...(argv.range !== undefined ? { range: String(argv.range) } : {}),
      ...filters,
      staged: argv.staged ?? false,
    });
    const [{ diffJsonDeferred, diffTextLines }, { boundedMarkdownLines }] = await formats;
    // Written as made: a change of many global invariants in a store of many projects lists millions of entries.
    // The markdown is a pull-request comment, cut where GitHub would refuse it whole.
    if (argv.format === 'markdown')
      await writePieces(ctx.io.stdout, piecesOf(boundedMarkdownLines(result, undefined, filters, ctx.agentsCommand())), (p) =>
        safeText(p, false),
      );
    else if (ctx.format === 'text')
      await writePieces(ctx.io.stdout, piecesOf(diffTextLines(result, ctx.style)), (p) => safeText(p, ctx.color));
    // An effective set's entries may number thousands: a few sets to a piece, in JSON and YAML alike.
    else await emitDocument(ctx, diffJsonDeferred(result), () => '', 4);
    return argv['exit-code'] && hasChanges(result) ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
