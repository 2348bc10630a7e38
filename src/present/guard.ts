import type { GuardVerdict } from '../core/guard.ts';
import { quoteEntry } from '../core/guard-reason.ts';
import { truncateCounted } from '../core/names.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';

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
      ...(h.below ? { below: true } : {}),
    })),
  };
}

/**
 * The text of a guard's verdict: what `agents guard try` prints and MCP `check_action` answers, so that the model is
 * told of a guard that matched but is waived as the person trying it is, not that no guard matches.
 */
export function verdictText(s: Style, verdict: GuardVerdict, reason: string | undefined): string {
  if (verdict.hits.length === 0 && verdict.decision === 'none')
    return `${s.green('none')}: no guard matches; the client's own permissions decide`;
  const decision = verdict.decision === 'deny' ? s.red('deny') : verdict.decision === 'ask' ? s.yellow('ask') : s.green(verdict.decision);
  const lines = [`${decision}${reason ? `: ${reason}` : ''}`];
  for (const h of verdict.hits)
    lines.push(
      `  ${h.rule.id} (${h.rule.scope}, ${h.rule.severity}) ${h.kind} ${quoteEntry(h.entry)} matches ${h.below ? 'files below ' : ''}${escapeUnsafe(truncateCounted(h.subject))}${h.waived ? ' (waived)' : ''}`,
    );
  return lines.join('\n');
}
