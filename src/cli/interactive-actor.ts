import { loadTui } from './tui-loader.ts';
import { CancelledError } from '../core/errors.ts';
import type { Actor } from '../enforce/actors.ts';

/**
 * The `interactive` actor: a person answers in the Ink TUI. Ink and React
 * load only here, through `await import`, so other runs never parse them.
 * Ctrl-C cancels the run (exit 130) and nothing is written.
 */
export function interactiveActor(streams: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; color?: boolean }): Actor {
  return {
    kind: 'interactive',
    description: 'a person at this terminal',
    async evaluate(request) {
      if (request.invariants.length === 0) return { ok: true, response: { results: [] } };
      const { askPerson } = await loadTui();
      const answers = await askPerson(request, { stdin: streams.stdin, stdout: streams.stdout, color: streams.color ?? false });
      if (answers === null) throw new CancelledError('Cancelled: nothing was written.');
      return { ok: true, response: { results: answers } };
    },
  };
}
