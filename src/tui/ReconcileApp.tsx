import { Box, Text, useApp } from 'ink';
import { clipToRows, fitColumns, plain, tailRows, withoutLastCharacter } from './plain.ts';
import { useKeys } from './use-keys.ts';
import { useEffect, useMemo, useReducer } from 'react';
import { useTheme } from './theme.ts';
import type { ActorRequest, ActorResult } from '../core/records.ts';

export interface ReconcileAppProps {
  request: ActorRequest;
  /** Called once: every answer, or null when the person cancelled (Ctrl-C). */
  onDone: (results: ActorResult[] | null) => void;
  /** The terminal's width and rows, which the screen stays within. */
  width?: number;
  rows?: number;
}

const MAX_NOTE = 1000;
/** Rows the goal, the rationale and the note each take at most; the invariant's text gets what is left. */
const GOAL_ROWS = 2;
const WHY_ROWS = 2;
const NOTE_ROWS = 3;

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
 * The rows each part of the screen gets within `rows` terminal rows, a row spare below (Ink clears the whole screen
 * after a frame as tall as the terminal): first the title, the invariant's line, the question or the note's first
 * row and a row of the text; then the goal, the rationale and the rest of the note, each up to a few rows; then the
 * blank row under the goal; the text takes what is left.
 */
export function reconcileLayout(
  rows: number,
  wanted: { goal: number; why: number; answer: number; note: number },
): { goal: number; why: number; note: number; gap: number; text: number } {
  let left = rows - 1 - 3 - wanted.answer - Math.min(1, wanted.note);
  const take = (n: number) => {
    const k = Math.max(0, Math.min(n, left));
    left -= k;
    return k;
  };
  const goal = take(Math.min(GOAL_ROWS, wanted.goal));
  const why = take(Math.min(WHY_ROWS, wanted.why));
  const note = Math.min(1, wanted.note) + take(Math.min(NOTE_ROWS, wanted.note) - Math.min(1, wanted.note));
  const gap = take(1);
  return { goal, why, note, gap, text: 1 + Math.max(0, left) };
}

/**
 * The interactive reconciliation actor: asks a person, invariant by invariant,
 * whether the plan enforces it (y/n), then for a note (Enter ends it).
 */
export function ReconcileApp({ request, onDone, width = 80, rows = 24 }: ReconcileAppProps) {
  const { exit } = useApp();
  const theme = useTheme();
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
  // An invariant holds up to 2,000 characters and a note up to 1,000: drawn whole, the screen outgrew the terminal and
  // scrolled its title and the invariant's id away at each key. Each part is cut to the rows reconcileLayout gives it.
  const title = fitColumns(`Reconcile plan ${plan.id}${plan.project ? ` (project ${plan.project})` : ''}`, width);
  const goalLines = plan.goal ? clipToRows(plain(`goal: ${plan.goal}`), width, Number.POSITIVE_INFINITY) : [];
  const whyLines = current?.rationale ? clipToRows(plain(` why: ${current.rationale}`), width, Number.POSITIVE_INFINITY) : [];
  const question = clipToRows('Enforce this invariant? [y/n] (Ctrl-C cancels; nothing is written)', width, 2);
  const noteLabel = 'Note (Enter to finish): ';
  // The field's end, where typing goes, with a column left for the cursor.
  const noteLines = clipToRows(`${noteLabel}${plain(note)}`, width - 1, Number.POSITIVE_INFINITY).length;
  const layout = reconcileLayout(rows, {
    goal: goalLines.length,
    why: whyLines.length,
    answer: decision === null ? question.length : 1,
    note: decision === null ? 0 : noteLines,
  });
  const goal = plan.goal ? clipToRows(plain(`goal: ${plan.goal}`), width, layout.goal).slice(0, layout.goal) : [];
  const why = current?.rationale ? clipToRows(plain(` why: ${current.rationale}`), width, layout.why).slice(0, layout.why) : [];
  const noteText = tailRows(`${noteLabel}${plain(note)}`, width - 1, Math.max(1, layout.note));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{title}</Text>
      {goal.length > 0 ? <Text dimColor={theme.dim}>{goal.join('\n')}</Text> : null}
      {finished || !current ? (
        <Text>
          Answered {results.length} of {total}: {results.filter((r) => r.enforced).length} enforced.
        </Text>
      ) : (
        <Box flexDirection="column" marginTop={layout.gap}>
          <Text>{fitColumns(`Invariant ${index + 1} of ${total} · ${current.scope} · ${current.severity} · ${current.id}`, width)}</Text>
          <Text bold>{clipToRows(plain(` ${current.text}`), width, layout.text).join('\n')}</Text>
          {why.length > 0 ? <Text dimColor={theme.dim}>{why.join('\n')}</Text> : null}
          {decision === null ? (
            <Text>{question.join('\n')}</Text>
          ) : (
            <Box flexDirection="column">
              <Text>{fitColumns(`Enforce: ${decision ? 'yes' : 'no'} (Esc changes it)`, width)}</Text>
              <Text>
                {noteText}
                <Text inverse> </Text>
              </Text>
            </Box>
          )}
        </Box>
      )}
    </Box>
  );
}
