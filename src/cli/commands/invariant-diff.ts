import { hasChanges } from '../../core/diff.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';
import { safeText } from '../safe-output.ts';

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
    const review = await ctx.review();
    // The formatter loads while git answers.
    const formats = import('../../present/diff.ts');
    formats.catch(() => undefined);
    const result = await review.diff({
      ...(argv.range !== undefined ? { range: String(argv.range) } : {}),
      ...(argv.project !== undefined ? { project: String(argv.project) } : {}),
      ...(argv.plan !== undefined ? { plan: String(argv.plan) } : {}),
      allProjects: argv['all-projects'] ?? false,
      staged: argv.staged ?? false,
    });
    const { diffJson, diffMarkdown, diffText } = await formats;
    if (argv.format === 'markdown') ctx.io.stdout.write(safeText(diffMarkdown(result), false));
    else emit(ctx, diffJson(result), () => diffText(result, ctx.style));
    return argv['exit-code'] && hasChanges(result) ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
