import { Box, Text, useApp, useInput } from 'ink';
import { useState } from 'react';
import type { ActorRequest, ActorResult } from '../core/records.ts';

export interface ReconcileAppProps {
  request: ActorRequest;
  /** Called once: every answer, or null when the person cancelled (Ctrl-C). */
  onDone: (results: ActorResult[] | null) => void;
}

const MAX_NOTE = 1000;

/**
 * The interactive reconciliation actor: asks a person, invariant by invariant,
 * whether the plan enforces it (y/n), then for a note (Enter ends it).
 */
export function ReconcileApp({ request, onDone }: ReconcileAppProps) {
  const { exit } = useApp();
  const [index, setIndex] = useState(0);
  const [decision, setDecision] = useState<boolean | null>(null);
  const [note, setNote] = useState('');
  const [results, setResults] = useState<ActorResult[]>([]);
  const total = request.invariants.length;
  const current = request.invariants[index];
  const finished = index >= total;

  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      onDone(null);
      exit();
      return;
    }
    if (finished || !current) return;
    if (decision === null) {
      const c = input.toLowerCase();
      if (c === 'y' || c === 'n') setDecision(c === 'y');
      return;
    }
    if (key.return) {
      const trimmed = note.trim();
      const response = trimmed !== '' ? trimmed : decision ? 'enforced (confirmed by a person)' : 'not enforced (declined by a person)';
      const next = [...results, { invariant_id: current.id, enforced: decision, response }];
      setResults(next);
      setDecision(null);
      setNote('');
      setIndex(index + 1);
      if (index + 1 >= total) {
        onDone(next);
        exit();
      }
      return;
    }
    if (key.backspace || key.delete) {
      setNote([...note].slice(0, -1).join(''));
      return;
    }
    if (key.escape) {
      setDecision(null);
      setNote('');
      return;
    }
    if (input && !key.ctrl && !key.meta && [...note].length < MAX_NOTE) setNote(note + input.replace(/[\r\n]/g, ' '));
  });

  const plan = request.plan;
  return (
    <Box flexDirection="column">
      <Text bold>
        Reconcile plan {plan.id}
        {plan.project ? ` (project ${plan.project})` : ''}
      </Text>
      {plan.goal ? <Text dimColor>goal: {plan.goal}</Text> : null}
      {finished || !current ? (
        <Text>
          Answered {results.length} of {total}: {results.filter((r) => r.enforced).length} enforced.
        </Text>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            Invariant {index + 1} of {total} · {current.scope} · {current.severity} · {current.id}
          </Text>
          <Text bold>  {current.text}</Text>
          {current.rationale ? <Text dimColor>  why: {current.rationale}</Text> : null}
          {decision === null ? (
            <Text>Enforce this invariant? [y/n]  (Ctrl-C cancels; nothing is written)</Text>
          ) : (
            <Box flexDirection="column">
              <Text>Enforce: {decision ? 'yes' : 'no'}  (Esc changes it)</Text>
              <Text>
                Note (Enter to finish): {note}
                <Text inverse> </Text>
              </Text>
            </Box>
          )}
        </Box>
      )}
    </Box>
  );
}
