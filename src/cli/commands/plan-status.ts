import { escapeUnsafe } from '../../core/plain-text.ts';
import { EXIT_CODES } from '../../core/errors.ts';
import { RELAXABLE, type GateReasonCode } from '../../core/plan-gate.ts';
import { defineCommand } from '../command.ts';
import { planJson, waiverJson } from '../plan-render.ts';
import { emit } from '../render.ts';

export default defineCommand<{ id: string; allow?: string[] }>({
  command: 'status <id>',
  describe:
    'The plan gate: exit 1 when a run failed, is incomplete or stale, an error invariant is unenforced, or an error violation stands',
  builder: (y) =>
    y.positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' }).option('allow', {
      type: 'string',
      array: true,
      choices: [...RELAXABLE],
      requiresArg: true,
      describe: 'report this reason instead of failing on it (repeatable; docs/plans.md)',
    }),
  async run(argv, ctx) {
    const allow = (argv.allow ?? []) as GateReasonCode[];
    const r = await (await ctx.plans()).status(String(argv.id), { allow });
    const s = ctx.style;
    const e = r.latestEnforcement;
    emit(
      ctx,
      {
        plan: planJson(r.plan),
        effective_count: r.effectiveCount,
        latest_enforcement: e
          ? { id: e.id, decision_id: e.decision_id, created_at: e.created_at, enforced: e.enforced, total: e.total, error: e.error ?? null }
          : null,
        violations: r.violations,
        waived_violations: r.waivedViolations,
        resolved_violations: r.resolvedViolations,
        waivers: r.waivers.map(waiverJson),
        failing: r.failing,
        reasons: r.reasons.map((x) => ({
          code: x.code,
          level: x.level,
          allowed: x.allowed ?? false,
          invariant_id: x.invariant_id ?? null,
          severity: x.severity ?? null,
          message: x.message,
        })),
        unfinished_runs: r.unfinished,
        allowed: allow,
      },
      () => {
        const v = r.violations;
        const lines = [
          `${r.failing ? s.red('FAILING') : s.green('OK')}  plan ${r.plan.id}`,
          `  effective set   ${r.effectiveCount} invariant${r.effectiveCount === 1 ? '' : 's'}`,
          `  enforcement     ${e ? `${e.enforced} of ${e.total} enforced at ${e.created_at}${e.error ? ` (actor failed: ${escapeUnsafe(e.error)})` : ''}` : 'never run'}`,
          `  violations      ${v.error} error, ${v.warning} warning, ${v.info} info${r.waivedViolations ? `; ${r.waivedViolations} waived` : ''}${r.resolvedViolations ? `; ${r.resolvedViolations} resolved` : ''}`,
          ...(r.waivers.length
            ? [`  waivers         ${r.waivers.filter((w) => w.holds).length} holding, ${r.waivers.filter((w) => !w.holds).length} expired`]
            : []),
        ];
        for (const x of r.reasons) {
          const label = x.level === 'fail' ? s.red('fail') : x.allowed ? s.yellow('allowed') : s.dim('note');
          lines.push(`  ${label}  ${x.code}: ${escapeUnsafe(x.message)}`);
        }
        return lines.join('\n');
      },
    );
    return r.failing ? EXIT_CODES.checkFailed : EXIT_CODES.ok;
  },
});
