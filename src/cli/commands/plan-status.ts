import { EXIT_CODES } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { planJson, waiverJson } from '../plan-render.ts';
import { emit } from '../render.ts';
import { planServiceFor } from '../plan-service.ts';
import { makeStyle } from '../style.ts';

export default defineCommand<{ id: string }>({
  command: 'status <id>',
  describe: 'Summarise enforcement and violations; exit 1 while an error violation stands',
  builder: (y) => y.positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' }),
  async run(argv, ctx) {
    const r = await planServiceFor(ctx).status(String(argv.id));
    const s = makeStyle(ctx.color);
    const e = r.latestEnforcement;
    emit(
      ctx,
      {
        plan: planJson(r.plan),
        effective_count: r.effectiveCount,
        latest_enforcement: e ? { id: e.id, decision_id: e.decision_id, created_at: e.created_at, enforced: e.enforced, total: e.total, error: e.error ?? null } : null,
        violations: r.violations,
        waived_violations: r.waivedViolations,
        resolved_violations: r.resolvedViolations,
        waivers: r.waivers.map(waiverJson),
        failing: r.failing,
      },
      () => {
        const v = r.violations;
        return [
          `${r.failing ? s.red('FAILING') : s.green('OK')}  plan ${r.plan.id}`,
          `  effective set   ${r.effectiveCount} invariant${r.effectiveCount === 1 ? '' : 's'}`,
          `  enforcement     ${e ? `${e.enforced} of ${e.total} enforced at ${e.created_at}${e.error ? ` (actor failed: ${e.error})` : ''}` : 'never run'}`,
          `  violations      ${v.error} error, ${v.warning} warning, ${v.info} info${r.waivedViolations ? `; ${r.waivedViolations} waived` : ''}${r.resolvedViolations ? `; ${r.resolvedViolations} resolved` : ''}`,
          ...(r.waivers.length ? [`  waivers         ${r.waivers.filter((w) => w.holds).length} holding, ${r.waivers.filter((w) => !w.holds).length} expired`] : []),
        ].join('\n');
      },
    );
    return r.failing ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
