import { render } from 'ink';
import type { ActorRequest, ActorResult } from '../core/records.ts';
import { ReconcileApp } from './ReconcileApp.tsx';

export interface TerminalStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

/** Runs the interactive actor on a terminal; resolves with the answers, or null when cancelled. */
export async function askPerson(request: ActorRequest, streams: TerminalStreams): Promise<ActorResult[] | null> {
  let answers: ActorResult[] | null = null;
  const app = render(<ReconcileApp request={request} onDone={(r) => (answers = r)} />, {
    stdin: streams.stdin,
    stdout: streams.stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await app.waitUntilExit();
  return answers;
}
