import { EXIT_CODES } from '../../core/errors.ts';
import { SEVERITIES, type Severity } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { violationListJson, violationListText } from '../../present/violation.ts';
import { emit } from '../render.ts';

export default defineCommand<{ plan?: string; severity?: Severity }>({
  builder: (y) =>
    y
      .option('plan', { type: 'string', requiresArg: true, describe: 'only this plan (id or unique prefix)' })
      .option('severity', { choices: [...SEVERITIES], requiresArg: true, describe: 'only this severity' }),
  async run(argv, ctx) {
    const items = await (await ctx.plans()).listViolations({
      ...(argv.plan !== undefined ? { plan: String(argv.plan) } : {}),
      ...(argv.severity !== undefined ? { severity: argv.severity } : {}),
    });
    emit(ctx, violationListJson(items), () => violationListText(ctx.style, items));
    return EXIT_CODES.ok;
  },
});
