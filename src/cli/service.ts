import { InvariantService } from '../service/invariant-service.ts';
import { PlanService } from '../service/plan-service.ts';
import type { CliContext } from './io.ts';

/** The service for this run's store (found by discovery unless --store). */
export function serviceFor(ctx: CliContext): InvariantService {
  return InvariantService.open({
    store: ctx.store,
    cwd: ctx.io.cwd,
    env: ctx.io.env,
    deps: { notice: (m) => ctx.io.stderr.write(`agents: ${m}\n`) },
  });
}

/** The plan use cases for this run's store. */
export function planServiceFor(ctx: CliContext): PlanService {
  return new PlanService(serviceFor(ctx));
}
