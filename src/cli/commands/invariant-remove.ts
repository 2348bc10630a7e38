import { EXIT_CODES } from '../../core/errors.ts';
import { describeScope } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { emit } from '../render.ts';
import { serviceFor } from '../service.ts';
import { makeStyle } from '../style.ts';

export default defineCommand<{ id: string; yes?: boolean; commit?: boolean }>({
  command: ['remove <id>', 'rm'],
  describe: 'Delete an invariant (asks first unless --yes)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'id or unique prefix (4+ characters)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'do not ask for confirmation' })
      .option('commit', { type: 'boolean', describe: 'commit the deletion with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const service = serviceFor(ctx);
    const s = makeStyle(ctx.color);
    const found = await service.resolveId(String(argv.id));
    if (!argv.yes) {
      requireInteractive(ctx);
      const info = await service.show(found.id);
      const { runConfirmRemove } = await import('../../tui/remove.tsx');
      const yes = await runConfirmRemove(tuiIo(ctx), info);
      if (!yes) {
        // As every form: a no (n, Enter, Esc) writes nothing and fails with exit 1.
        ctx.io.stderr.write('Nothing removed.\n');
        return EXIT_CODES.checkFailed;
      }
    }
    const done = await service.remove(found.id, argv.commit !== undefined ? { commit: argv.commit } : {});
    emit(ctx, { removed: found.id, path: found.path, scope: found.scope.kind, commit: done.commit ?? null }, () =>
      `${s.green('removed')} ${found.id} from ${describeScope(found.scope)} (${found.path})${done.commit ? `\n  committed ${done.commit.slice(0, 12)}` : ''}`,
    );
    return EXIT_CODES.ok;
  },
});
