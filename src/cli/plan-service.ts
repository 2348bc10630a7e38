import { PlanService } from '../service/plan-service.ts';
import type { CliContext } from './io.ts';
import { serviceFor } from './service.ts';

/** The plan use cases for this run's store (a module of its own: commands that only read invariants never load them). */
export function planServiceFor(ctx: CliContext): PlanService {
  return new PlanService(serviceFor(ctx));
}
