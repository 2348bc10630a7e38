// Entry of `agents tui` and `invariant list --interactive` (loaded with `await import`).
import type { InvariantService } from '../service/invariant-service.ts';
import { Browser } from './Browser.tsx';
import type { ScopeChoice } from './browser-rows.ts';
import { runInk, type TuiIo } from './run-ink.tsx';

/** Runs the browser full-screen until `q`/Esc; Ctrl-C throws CancelledError. */
export function runBrowser(
  io: TuiIo,
  service: InvariantService,
  options: { scope?: ScopeChoice; pattern?: string; effective?: boolean } = {},
): Promise<void> {
  return runInk<void>(
    io,
    (finish) => <Browser service={service} {...options} onQuit={() => finish.done(undefined)} onError={finish.fail} />,
    { fullScreen: true },
  );
}
