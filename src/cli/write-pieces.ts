import type { CliIo } from './io.ts';
import { sayCutOnStop } from './output-stop.ts';

/**
 * Writes a long output piece by piece (docs/json-output.md, "Large outputs
 * are streamed"), waiting for the stream to drain whenever it asks to (a
 * pipe to a slow reader): memory holds a piece or two, never the whole text. A stop
 * signal during such a wait says the output is cut short (sayCutOnStop).
 */
export async function writePieces(out: CliIo['stdout'], pieces: Iterable<string>, clean: (piece: string) => string): Promise<void> {
  type Listen = (event: 'drain' | 'close' | 'error', listener: () => void) => unknown;
  const stream = out as CliIo['stdout'] & { once?: Listen; off?: Listen };
  const events = ['drain', 'close', 'error'] as const;
  for (const piece of pieces) {
    if (out.write(clean(piece)) === false && typeof stream.once === 'function' && typeof stream.off === 'function') {
      const undo = sayCutOnStop(out);
      await new Promise<void>((resolve) => {
        const done = () => {
          for (const e of events) stream.off!(e, done);
          resolve();
        };
        for (const e of events) stream.once!(e, done);
      });
      undo();
    }
  }
}
