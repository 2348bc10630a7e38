import { GATE_LEVELS, GATE_REASON_CODES } from '../core/plan-gate.ts';
import { SEVERITIES } from '../core/model.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import type { PlanStatus } from '../service/plan-service.ts';
import { PLAN_SCHEMA, planJson, WAIVER_SCHEMA, waiverJson } from './plan.ts';
import { WARNING_SCHEMA, warningsJson } from './diagnostics.ts';
import { arrayOf, BOOLEAN, enumOf, INTEGER, type JsonSchema, nullable, objectOf, STRING } from './schema.ts';

/**
 * `plan status` as data (docs/json-output.md): the one shape the CLI prints
 * with `--format json` and the MCP tool `plan_status` answers.
 */
export function planStatusJson(r: PlanStatus) {
  const e = r.latestEnforcement;
  return {
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
      // `stale`: what changed since the run; `edited` is null for a run whose records keep no digest.
      added: x.added ?? null,
      removed: x.removed ?? null,
      edited: x.edited ?? null,
      // `error-violation`: the expired waivers (ids in `waivers`) whose renewal would cover a standing violation.
      expired_waivers: x.expiredWaivers ?? null,
      message: x.message,
    })),
    unfinished_runs: r.unfinished,
    allowed: [...r.allowed],
    warnings: warningsJson(r.warnings),
  };
}

const COUNTS = objectOf(Object.fromEntries(SEVERITIES.map((s) => [s, INTEGER])), SEVERITIES);

export const PLAN_STATUS_SCHEMA: JsonSchema = objectOf(
  {
    plan: PLAN_SCHEMA,
    effective_count: INTEGER,
    latest_enforcement: {
      type: ['object', 'null'],
      properties: {
        id: STRING,
        decision_id: STRING,
        created_at: STRING,
        enforced: INTEGER,
        total: INTEGER,
        error: nullable('string'),
      },
      required: ['id', 'decision_id', 'created_at', 'enforced', 'total', 'error'],
    },
    violations: COUNTS,
    waived_violations: INTEGER,
    resolved_violations: INTEGER,
    waivers: arrayOf(WAIVER_SCHEMA),
    failing: BOOLEAN,
    reasons: arrayOf(
      objectOf(
        {
          code: enumOf(GATE_REASON_CODES),
          level: enumOf(GATE_LEVELS),
          allowed: BOOLEAN,
          invariant_id: nullable('string'),
          severity: { enum: [...SEVERITIES, null] },
          added: nullable('integer'),
          removed: nullable('integer'),
          edited: nullable('integer'),
          expired_waivers: { type: ['array', 'null'], items: STRING },
          message: STRING,
        },
        ['code', 'level', 'allowed', 'invariant_id', 'severity', 'added', 'removed', 'edited', 'expired_waivers', 'message'],
      ),
    ),
    unfinished_runs: arrayOf(STRING),
    allowed: arrayOf(enumOf(GATE_REASON_CODES)),
    warnings: arrayOf(WARNING_SCHEMA),
  },
  [
    'plan',
    'effective_count',
    'latest_enforcement',
    'violations',
    'waived_violations',
    'resolved_violations',
    'waivers',
    'failing',
    'reasons',
    'unfinished_runs',
    'allowed',
    'warnings',
  ],
);

/**
 * `plan status` as text: the verdict, the counts, then each reason, or those of `reasons` (a page of them, MCP's
 * plan_status): the lines above them are still said of the whole status.
 */
export function planStatusText(r: PlanStatus, s: Style, reasons: readonly PlanStatus['reasons'][number][] = r.reasons): string {
  const e = r.latestEnforcement;
  const v = r.violations;
  const lines = [
    `${r.failing ? s.red('FAILING') : s.green('OK')}  plan ${r.plan.id}${r.plan.project ? ` (project ${r.plan.project})` : ''}${r.plan.goal ? ` — ${escapeUnsafe(r.plan.goal)}` : ''}`,
    `  effective set   ${r.effectiveCount} invariant${r.effectiveCount === 1 ? '' : 's'}`,
    `  enforcement     ${e ? `${e.enforced} of ${e.total} enforced at ${e.created_at}${e.error ? ` (actor failed: ${escapeUnsafe(e.error)})` : ''}` : r.reasons.some((x) => x.code === 'run-incomplete') ? 'latest run incomplete' : 'never run'}`,
    `  violations      ${v.error} error, ${v.warning} warning, ${v.info} info${r.waivedViolations ? `; ${r.waivedViolations} waived` : ''}${r.resolvedViolations ? `; ${r.resolvedViolations} resolved` : ''}`,
    ...(r.waivers.length
      ? [`  waivers         ${r.waivers.filter((w) => w.holds).length} holding, ${r.waivers.filter((w) => !w.holds).length} expired`]
      : []),
  ];
  for (const x of reasons) {
    const label = x.level === 'fail' ? s.red('fail') : x.allowed ? s.yellow('allowed') : s.dim('note');
    lines.push(`  ${label}  ${x.code}: ${escapeUnsafe(x.message)}`);
  }
  return lines.join('\n');
}
