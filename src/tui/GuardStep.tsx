import { Box, Text } from 'ink';
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { plain } from './plain.ts';
import { GUARD_KINDS, type Guard, type GuardKind } from '../core/model.ts';
import { TextInput } from './TextInput.tsx';
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
}

/**
 * The guard of an invariant (docs/guard.md), one kind after another: Enter
 * adds what was typed (or takes it out again when the list holds it), Enter
 * on an empty line goes on to the next kind. An entry may hold any character,
 * commas and semicolons included, as regular expressions do.
 */
export function GuardStep({ guard, onChange, onDone }: GuardStepProps): ReactElement {
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
  return (
    <Box flexDirection="column">
      <Text>{`Guard ${at + 1}/${GUARD_KINDS.length} · ${ASK[kind]}:`}</Text>
      {list.map((e) => (
        <Text key={e} color={theme.hue('yellow')}>{`  ${kind}  ${plain(e)}`}</Text>
      ))}
      <Box>
        <Text>{'> '}</Text>
        <TextInput
          value={draft}
          onChange={(v) => {
            setDraft(v);
            setProblem(undefined);
          }}
          onSubmit={submit}
        />
      </Box>
      {problem ? (
        <Text color={theme.hue('red')} wrap="wrap">
          {plain(`✗ ${problem}`)}
        </Text>
      ) : null}
      <Text dimColor={theme.dim}>Enter adds it (or takes out one listed); Enter on an empty line goes on</Text>
    </Box>
  );
}

/** The guard as the confirmation shows it: one kind a line, or "(none)". */
export function guardSummary(guard: Guard): string[] {
  const lines = GUARD_KINDS.filter((k) => (guard[k] ?? []).length > 0).map((k) => `${k}: ${(guard[k] ?? []).join('  ')}`);
  return lines.length > 0 ? lines : ['(none)'];
}
