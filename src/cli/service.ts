import { InvariantService } from '../service/invariant-service.ts';
import type { CliContext } from './io.ts';
import { safeText } from './safe-output.ts';

/** The service for this run's store (found by discovery unless --store). */
export function serviceFor(ctx: CliContext): InvariantService {
  return InvariantService.open({
    store: ctx.store,
    cwd: ctx.io.cwd,
    env: ctx.io.env,
    deps: { notice: (m) => ctx.io.stderr.write(safeText(`agents: ${m}\n`, false)) },
  });
}
