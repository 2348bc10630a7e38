import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { violationJson } from '../../present/violation.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string; note?: string; commit?: boolean }>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'violation id or unique prefix (4+ characters)' })
      .option('note', { type: 'string', requiresArg: true, describe: 'how it was dealt with' })
      .option('commit', { type: 'boolean', describe: 'commit the change with git (default: commit: in config.yaml)' }),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).resolveViolation(String(argv.id), {
      ...(argv.note !== undefined ? { note: String(argv.note) } : {}),
      ...(argv.commit !== undefined ? { commit: argv.commit } : {}),
    });
    const s = ctx.style;
    const v = r.violation;
    emit(ctx, { ...violationJson(r.plan, r.path, v), commit: r.commit ?? null }, () =>
      [
        `${s.green('resolved')} violation ${s.bold(v.id)} of ${v.invariant_id} in plan ${r.plan}`,
        `  ${v.violated_text}`,
        ...(v.resolved?.note ? [`  note: ${v.resolved.note}`] : []),
        `  ${r.path}`,
        ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
      ].join('\n'),
    );
    return EXIT_CODES.ok;
  },
});
