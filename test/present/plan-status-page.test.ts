// `plan status` as text for a page of its reasons (MCP's plan_status): the lines above the reasons are said of the
// whole status, so a later page of a run whose enforcement file is missing still says the run is incomplete.
import { describe, expect, it } from 'vitest';
import { planStatusText } from '../../src/present/plan-status.ts';
import { makeStyle } from '../../src/core/style.ts';
import type { PlanStatus } from '../../src/service/plans/types.ts';

const unenforced = (id: string) => ({
  code: 'unenforced' as const,
  level: 'fail' as const,
  invariant_id: id,
  severity: 'error' as const,
  message: `error invariant ${id} was not enforced: the latest run has no record of it`,
});

const status = {
  plan: { id: '01M8KK5920RS6CGAVDFVYYJ0B4', project: 'myapp', goal: 'Upgrade' },
  allowed: [],
  effectiveCount: 2,
  violations: { error: 0, warning: 0, info: 0 },
  waivedViolations: 0,
  resolvedViolations: 0,
  waivers: [],
  failing: true,
  reasons: [
    { code: 'run-incomplete' as const, level: 'fail' as const, message: "the latest run's enforcement file is missing" },
    unenforced('01M9C000000000000000000000'),
    unenforced('01M9C000000000000000000001'),
  ],
  unfinished: [],
  warnings: [],
} as unknown as PlanStatus;

describe('planStatusText of a page of reasons', () => {
  it('says the whole status above the page, and only the reasons of the page', () => {
    const page = planStatusText(status, makeStyle(false), status.reasons.slice(2));
    expect(page).toContain('latest run incomplete');
    expect(page).toContain('01M9C000000000000000000001');
    expect(page).not.toContain('01M9C000000000000000000000');
    expect(planStatusText(status, makeStyle(false))).toContain('01M9C000000000000000000000');
  });
});
