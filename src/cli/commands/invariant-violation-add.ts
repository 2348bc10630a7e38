import { EXIT_CODES } from '../../core/errors.ts';
import { SEVERITIES, type Severity } from '../../core/model.ts';
import { defineCommand } from '../command.ts';
import { recordedText, violationJson } from '../../present/violation.ts';
import { emit } from '../render.ts';

interface AddArgs {
  plan: string;
  invariant: string;
  severity?: Severity;
  details?: string;
}

export default defineCommand<AddArgs>({
  builder: (y) =>
    y
      .option('plan', { type: 'string', requiresArg: true, demandOption: true, describe: 'plan id or unique prefix' })
      .option('invariant', {
        type: 'string',
        requiresArg: true,
        demandOption: true,
        describe: "invariant id or unique prefix (in the plan's effective set)",
      })
      .option('severity', { choices: [...SEVERITIES], requiresArg: true, describe: "severity (default: the invariant's own)" })
      .option('details', { type: 'string', requiresArg: true, describe: 'what happened' }),
  async run(argv, ctx) {
    const r = await (await ctx.plans()).addViolation({
      plan: String(argv.plan),
      invariant: String(argv.invariant),
      ...(argv.severity !== undefined ? { severity: argv.severity } : {}),
      ...(argv.details !== undefined ? { details: String(argv.details) } : {}),
    });
    emit(ctx, violationJson(r.plan, r.path, r.violation), () => recordedText(ctx.style, r));
    return EXIT_CODES.ok;
  },
});
