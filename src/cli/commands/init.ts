import { EXIT_CODES } from '../../core/errors.ts';
import { initTarget } from '../../store/discover.ts';
import { initStore } from '../../store/init.ts';
import { defineCommand } from '../command.ts';
import { emit } from '../render.ts';
import { makeStyle } from '../style.ts';

export default defineCommand<Record<string, unknown>>({
  command: 'init',
  describe: 'Create a store (.agents/ at the top of the git repository)',
  builder: (y) => y,
  async run(_argv, ctx) {
    const root = initTarget({ store: ctx.store, env: ctx.io.env, cwd: ctx.io.cwd });
    const made = initStore(root);
    const s = makeStyle(ctx.color);
    emit(ctx, { store: root, created: made }, () =>
      [`${s.green('created')} store ${root}`, ...made.map((m) => `  ${m}`), '', 'Next: agents invariant add --global "Never delete production data"'].join('\n'),
    );
    return EXIT_CODES.ok;
  },
});
