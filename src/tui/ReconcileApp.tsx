import { Box, Text, useApp } from 'ink';
import { plain, withoutLastCharacter } from './plain.ts';
import { useKeys } from './use-keys.ts';
import { useEffect, useMemo, useReducer } from 'react';
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
interface State {
  index: number;
  decision: boolean | null;
  note: string;
  results: ActorResult[];
}

type Action = { type: 'key'; text: string } | { type: 'paste'; text: string } | { type: 'erase' } | { type: 'undo' } | { type: 'submit' };

/**
 * Pure state changes, so keys that arrive faster than renders (a paste, a
 * fast typist, a test) are applied in order against the latest state.
 */
export function reduceReconcile(state: State, action: Action, ids: readonly string[]): State {
  if (state.index >= ids.length) return state;
  switch (action.type) {
    case 'key': {
      let text = action.text.replace(/[\r\n]/g, ' ');
      let next = state;
      if (next.decision === null) {
        const first = text[0]?.toLowerCase();
        if (first !== 'y' && first !== 'n') return state;
        next = { ...next, decision: first === 'y' };
        text = text.slice(1);
      }
      return text === '' ? next : { ...next, note: [...(next.note + text)].slice(0, MAX_NOTE).join('') };
    }
    case 'paste':
      // Pasted text is a note, never an answer: it decides nothing, and its line breaks (already spaces) submit nothing.
      if (state.decision === null) return state;
      return { ...state, note: [...(state.note + action.text)].slice(0, MAX_NOTE).join('') };
    case 'erase':
      return { ...state, note: withoutLastCharacter(state.note) };
    case 'undo':
      return { ...state, decision: null, note: '' };
    case 'submit': {
      if (state.decision === null) return state;
      const trimmed = state.note.trim();
      const response =
        trimmed !== '' ? trimmed : state.decision ? 'enforced (confirmed by a person)' : 'not enforced (declined by a person)';
      return {
        index: state.index + 1,
        decision: null,
        note: '',
        results: [...state.results, { invariant_id: ids[state.index]!, enforced: state.decision, response }],
      };
    }
  }
}

/**
 * The interactive reconciliation actor: asks a person, invariant by invariant,
 * whether the plan enforces it (y/n), then for a note (Enter ends it).
 */
export function ReconcileApp({ request, onDone }: ReconcileAppProps) {
  const { exit } = useApp();
  const ids = useMemo(() => request.invariants.map((i) => i.id), [request]);
  const [state, dispatch] = useReducer((s: State, a: Action) => reduceReconcile(s, a, ids), {
    index: 0,
    decision: null,
    note: '',
    results: [],
  });
  const { index, decision, note, results } = state;
  const total = request.invariants.length;
  const current = request.invariants[index];
  const finished = index >= total;

  // biome-ignore lint/correctness/useExhaustiveDependencies: fires once, when the last answer is in; results are final then.
  useEffect(() => {
    if (finished) {
      onDone(results);
      exit();
    }
  }, [finished]);

  // Through the app's KeyHub (use-keys.ts): keys typed ahead come one at a time, and a paste comes marked as one.
  useKeys(
    (input, key, pasted) => {
      if (pasted) {
        if (input !== '') dispatch({ type: 'paste', text: input });
        return;
      }
      if (key.ctrl && input === 'c') {
        onDone(null);
        exit();
        return;
      }
      if (key.return) dispatch({ type: 'submit' });
      else if (key.backspace || key.delete) dispatch({ type: 'erase' });
      else if (key.escape) dispatch({ type: 'undo' });
      else if (input && !key.ctrl && !key.meta) {
        // A chunk may hold several keys ("note text\r" when typed fast or pasted): a line break submits.
        input.split(/\r\n|\r|\n/).forEach((part, i) => {
          if (i > 0) dispatch({ type: 'submit' });
          if (part !== '') dispatch({ type: 'key', text: part });
        });
      }
    },
    { paste: true },
  );

  const plan = request.plan;
  return (
    <Box flexDirection="column">
      <Text bold>
        Reconcile plan {plan.id}
        {plan.project ? ` (project ${plan.project})` : ''}
      </Text>
      {plan.goal ? <Text dimColor>goal: {plain(plan.goal)}</Text> : null}
      {finished || !current ? (
        <Text>
          Answered {results.length} of {total}: {results.filter((r) => r.enforced).length} enforced.
        </Text>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            Invariant {index + 1} of {total} · {current.scope} · {current.severity} · {current.id}
          </Text>
          <Text bold> {plain(current.text)}</Text>
          {current.rationale ? <Text dimColor> why: {plain(current.rationale)}</Text> : null}
          {decision === null ? (
            <Text>Enforce this invariant? [y/n] (Ctrl-C cancels; nothing is written)</Text>
          ) : (
            <Box flexDirection="column">
              <Text>Enforce: {decision ? 'yes' : 'no'} (Esc changes it)</Text>
              <Text>
                Note (Enter to finish): {plain(note)}
                <Text inverse> </Text>
              </Text>
            </Box>
          )}
        </Box>
      )}
    </Box>
  );
}
