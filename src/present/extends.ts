// The shapes `agents extends fetch` prints (docs/json-output.md): the sources fetched; built here so that the command
// only gathers what was done.
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import type { FetchOutcome } from '../store/extends.ts';

/** The JSON of `extends fetch`: each source, its commit, fetched or cached, and what of it is never read. */
export function fetchedJson(outcomes: readonly FetchOutcome[]) {
  return outcomes.map((o) => ({ name: o.name, commit: o.commit, status: o.status, ignored: o.ignored }));
}

export function fetchedText(s: Style, outcomes: readonly FetchOutcome[]): string {
  return outcomes
    .flatMap((o) => [
      `${o.status === 'fetched' ? s.green('fetched') : s.dim('cached ')}  ${o.name}  ${o.commit}`,
      ...(o.ignored.length > 0
        ? [
            s.dim(
              // A name of the source's may hold a newline, which would print a line of its own (a forged "fetched" line).
              `         ignored (never read or run): ${o.ignored.map((n) => escapeUnsafe(o.ignoredFolders.includes(n) ? `${n}/` : n)).join(', ')}`,
            ),
          ]
        : []),
    ])
    .join('\n');
}
