import { Box, Text } from 'ink';
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { GUARD_KINDS, type Guard, type GuardKind } from '../core/model.ts';
import { TextInput, fieldRows } from './TextInput.tsx';
import { useTheme } from './theme.ts';

const ASK: Record<GuardKind, string> = {
  write: 'Files an agent may not create, change or delete (globs from the top of the repository)',
  command: 'Shell commands an agent may not run (regular expressions)',
  content: 'Text an agent may not write into a file (regular expressions)',
  tool: 'Tools an agent may not call (names, e.g. mcp__db__drop_table)',
};

export interface GuardStepProps {
  guard: Guard;
  onChange(guard: Guard): void;
  /** Enter on an empty line after the last kind. */
  onDone(): void;
  width?: number;
  /** The rows the step may take: a long list shows its last entries, the rest counted. */
  rows?: number;
}

const HINT = 'Enter adds it (or takes out one listed); Enter on an empty line goes on';

/**
 * The guard of an invariant (docs/guard.md), one kind after another: Enter
 * adds what was typed (or takes it out again when the list holds it), Enter
 * on an empty line goes on to the next kind. An entry may hold any character,
 * commas and semicolons included, as regular expressions do.
 */
export function GuardStep({ guard, onChange, onDone, width = 80, rows = 21 }: GuardStepProps): ReactElement {
  const theme = useTheme();
  const [at, setAt] = useState(0);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  // The pattern checks (RE2 for commands and content) load with this step, not with every screen; an entry typed
  // before they arrive is checked when the form saves.
  const check = useRef<((guard: Guard) => { problem: string }[]) | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void import('../core/guard-patterns.ts').then((m) => {
      if (live) check.current = m.guardProblems;
    });
    return () => {
      live = false;
    };
  }, []);
  // Keys typed ahead reach this handler before the next render: the latest step and guard live in refs.
  const latest = useRef({ at: 0, guard });
  latest.current.guard = guard;
  const kind = GUARD_KINDS[at]!;
  const list = guard[kind] ?? [];
  const submit = (value: string) => {
    const now = latest.current;
    const entry = value.trim();
    if (entry === '') {
      if (now.at + 1 < GUARD_KINDS.length) setAt(++now.at);
      else onDone();
      return;
    }
    const k = GUARD_KINDS[now.at]!;
    const had = now.guard[k] ?? [];
    // An entry `add` would refuse is not taken: its problem is shown, the entry stays to be fixed.
    const refused = had.includes(entry) ? undefined : check.current?.({ [k]: [entry] })[0];
    if (refused) return setProblem(refused.problem);
    const next = had.includes(entry) ? had.filter((e) => e !== entry) : [...had, entry];
    const { [k]: _, ...rest } = now.guard;
    now.guard = next.length > 0 ? { ...rest, [k]: next } : rest;
    onChange(now.guard);
    setDraft('');
  };
  // An invariant's guard can list dozens of entries (an edit opens on them all): drawn whole, they made the step
  // taller than the terminal, which scrolled the form's title and question away at each key. The last entries show
  // (where an added one goes), the ones before them counted.
  // On a short terminal the question, the field and the hint take a row each, and the hint goes where not even that fits.
  const most = rows < 7 ? 1 : 2;
  const question = clipToRows(`Guard ${at + 1}/${GUARD_KINDS.length} · ${ASK[kind]}:`, width, most);
  const hint = rows >= 3 ? clipToRows(HINT, width, most) : [];
  const problemRows = problem ? clipToRows(plain(`✗ ${problem}`), width, most) : [];
  const inputColumns = Math.max(1, width - 2);
  const inputRows = Math.min(most, fieldRows(draft, inputColumns));
  const room = Math.max(1, rows - question.length - inputRows - problemRows.length - hint.length);
  const shown = list.length <= room ? list : list.slice(list.length - (room - 1));
  const before = list.length - shown.length;
  return (
    <Box flexDirection="column" width={width}>
      <Text>{question.join('\n')}</Text>
      {before > 0 ? (
        <Text dimColor={theme.dim}>{fitColumns(`  … ${before} more ${kind} entr${before === 1 ? 'y' : 'ies'} above`, width)}</Text>
      ) : null}
      {shown.map((e) => (
        <Text key={e} color={theme.hue('yellow')}>
          {fitColumns(plain(`  ${kind}  ${e}`), width)}
        </Text>
      ))}
      <Box>
        <Text>{'> '}</Text>
        <TextInput
          value={draft}
          fit={{ columns: inputColumns, rows: most }}
          onChange={(v) => {
            setDraft(v);
            setProblem(undefined);
          }}
          onSubmit={submit}
        />
      </Box>
      {problemRows.length > 0 ? <Text color={theme.hue('red')}>{problemRows.join('\n')}</Text> : null}
      <Text dimColor={theme.dim}>{hint.join('\n')}</Text>
    </Box>
  );
}

/** The guard as the confirmation shows it: one kind a line, or "(none)". */
export function guardSummary(guard: Guard): string[] {
  const lines = GUARD_KINDS.filter((k) => (guard[k] ?? []).length > 0).map((k) => `${k}: ${(guard[k] ?? []).join('  ')}`);
  return lines.length > 0 ? lines : ['(none)'];
}
