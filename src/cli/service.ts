import { InvariantService } from '../service/invariant-service.ts';
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
