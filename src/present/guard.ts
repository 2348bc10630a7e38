import type { GuardVerdict } from '../core/guard.ts';
import { truncateCounted } from '../core/names.ts';

/**
 * The JSON of a guard's verdict (docs/json-output.md, "guard"): what
 * `agents guard try` prints and MCP `check_action` answers, built here once
 * so that the two say the same.
 */
export function verdictJson(verdict: GuardVerdict, reason: string | undefined, plan: string | null) {
  return {
    decision: verdict.decision,
    plan,
    reason: reason ?? null,
    hits: verdict.hits.map((h) => ({
      invariant: h.rule.id,
      text: h.rule.text,
      severity: h.rule.severity,
      scope: h.rule.scope,
      path: h.rule.path,
      kind: h.kind,
      entry: h.entry,
      subject: truncateCounted(h.subject),
      waived: h.waived,
      locked: h.rule.locked === true,
    })),
  };
}
