import type { Plan } from '../../core/model.ts';
import type { InvariantService } from '../invariant-service.ts';

/**
 * What a use case under plans/ is given: the store's invariants, and the
 * methods of PlanService that it asks in turn. PlanService implements it; the
 * use cases name this, not the class, so that they never import the facade
 * that imports them. The methods are documented on the class.
 */
export interface PlanContext {
  readonly root: string;
  readonly invariants: InvariantService;
  resolvePlanId(prefix: string): Promise<string>;
  list(): Promise<Plan[]>;
}
