import { EXIT_CODES, missingValue, UsageError } from '../../core/errors.ts';
import { ExtendsService } from '../../service/extends-service.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';
import { makeStyle } from '../../core/style.ts';
import { fetchedJson, fetchedText } from '../../present/extends.ts';
import { abortOnStopSignals } from '../stop-signals.ts';

export default defineCommand<{ source?: string[]; rev?: string }>({
  builder: (y) =>
    y.positional('source', { type: 'string', array: true, describe: 'the sources to fetch (default: all)' }).option('rev', {
      type: 'string',
      requiresArg: true,
      describe: "fetch the pins of a revision's lock instead of the working tree's (the base side of `invariant diff` in CI)",
    }),
  async run(argv, ctx) {
    // An empty --rev (an unset variable, `--rev "$BASE"`) names no revision: said so, not as one the repository lacks.
    if (argv.rev !== undefined && argv.rev.trim() === '')
      throw missingValue('--rev is empty', 'Give the revision whose pins to fetch, e.g. --rev HEAD^1.', 'rev');
    // With no store in the working tree, a revision's pins are still read where it had the store (a pull request that
    // removes it: the workflow fetches its base's for the diff, which reports the store removed).
    const at = await ctx.root().then(
      () => undefined,
      async (error: unknown) => {
        if (argv.rev === undefined || !(error instanceof UsageError)) throw error;
        const { storePlaceAtRevisions } = await import('../../store/discover.ts');
        const place = storePlaceAtRevisions({ store: ctx.store, env: ctx.io.env, cwd: ctx.io.cwd });
        if (place === undefined) throw error;
        return { ...place, error };
      },
    );
    const service = at === undefined ? new ExtendsService(await ctx.invariants()) : undefined;
    // A stop that comes as the last source is put in the cache ends the run as the signal asks once it is there, not 0.
    const outcomes = await abortOnStopSignals(
      'git was stopped; the sources not fetched yet were left as they were.',
      (signal) =>
        service !== undefined
          ? service.fetch(argv.source ?? [], signal, argv.rev)
          : ExtendsService.fetchAtRevision(at!, argv.source ?? [], signal, argv.rev!, (m) => ctx.notice(m)),
      (done) => `${done.length} source${done.length === 1 ? ' was' : 's were'} fetched or found cached.`,
    );
    const s = makeStyle(ctx.color);
    emit(ctx, fetchedJson(outcomes), () => fetchedText(s, outcomes));
    return EXIT_CODES.ok;
  },
});
