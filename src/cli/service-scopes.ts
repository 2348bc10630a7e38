import { ScopeService } from '../service/scope-service.ts';
import type { CliContext } from './io.ts';
import { serviceFor } from './service.ts';

/** Action templates and projects of this run's store. */
export function scopeServiceFor(ctx: CliContext): ScopeService {
  return new ScopeService(serviceFor(ctx));
}
