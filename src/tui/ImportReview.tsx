import { Box, Text } from 'ink';
import { useState, type ReactElement } from 'react';
import type { ImportPlan, PlannedCandidate, PlannedScope } from '../core/import-plan.ts';
import { SEVERITIES } from '../core/model.ts';
import { fitColumns, plain } from './plain.ts';
import { TextInput } from './TextInput.tsx';
import { useKeys } from './use-keys.ts';
import { useTheme } from './theme.ts';

export interface ImportReviewProps {
  plan: ImportPlan;
  width?: number;
  /** How many candidates fit on the screen at once. */
  rows?: number;
  /** Enter: the kept candidates, as edited. */
  onDone(chosen: PlannedCandidate[]): void;
  /** n or Esc: nothing is written. */
  onCancel(): void;
}

const scopeName = (s: PlannedScope) => (s.kind === 'global' ? 'global' : `project ${s.project}`);

/**
 * The review of an import: each new candidate with its file and line, kept or
 * not (space), its text edited (e), its severity (s) and scope (p) changed;
 * Enter writes the kept ones, n or Esc writes nothing. Candidates the store
 * already holds, or said twice, are shown but cannot be kept.
 */
export function ImportReview({ plan, width = 80, rows = 12, onDone, onCancel }: ImportReviewProps): ReactElement {
  const theme = useTheme();
  const fresh = plan.candidates.filter((c) => c.status === 'new');
  const [items, setItems] = useState(() => fresh.map((c) => ({ ...c, keep: true })));
  const [at, setAt] = useState(0);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const scopes: PlannedScope[] = [{ kind: 'global' }, ...plan.projects.map((p) => ({ kind: 'project' as const, project: p.name }))];
  const update = (n: number, change: Partial<(typeof items)[number]>) =>
    setItems((all) => all.map((c, i) => (i === n ? { ...c, ...change } : c)));

  useKeys((input, key) => {
    if (editing !== undefined) {
      if (key.escape) setEditing(undefined);
      return;
    }
    const c = items[at];
    if (key.upArrow || input === 'k') setAt((n) => Math.max(0, n - 1));
    else if (key.downArrow || input === 'j') setAt((n) => Math.min(items.length - 1, n + 1));
    else if (input === ' ' && c) update(at, { keep: !c.keep });
    else if (input === 'a') setItems((all) => all.map((x) => ({ ...x, keep: !all.every((y) => y.keep) })));
    else if (input === 'e' && c) setEditing(c.text);
    else if (input === 's' && c) update(at, { severity: SEVERITIES[(SEVERITIES.indexOf(c.severity) + 1) % SEVERITIES.length]! });
    else if (input === 'p' && c && scopes.length > 1) {
      const i = scopes.findIndex((s) => scopeName(s) === scopeName(c.scope));
      update(at, { scope: scopes[(i + 1) % scopes.length]! });
    } else if (key.return) onDone(items.filter((x) => x.keep).map(({ keep: _, ...x }) => x));
    else if (input === 'n' || key.escape) onCancel();
  });

  const first = Math.min(Math.max(0, at - Math.floor(rows / 2)), Math.max(0, items.length - rows));
  const kept = items.filter((c) => c.keep).length;
  const held = plan.candidates.length - fresh.length;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{`Import ${fresh.length} rule${fresh.length === 1 ? '' : 's'} as invariants (${kept} kept)`}</Text>
      {held > 0 ? <Text dimColor={theme.dim}>{`${held} more already in the store or said twice: left out`}</Text> : null}
      {items.slice(first, first + rows).map((c, i) => {
        const n = first + i;
        const here = n === at;
        return (
          <Box key={c.n} flexDirection="column">
            <Text wrap="truncate-end" inverse={here}>
              {`${here ? '›' : ' '} [${c.keep ? 'x' : ' '}] `}
              <Text color={theme.hue(c.severity === 'error' ? 'red' : c.severity === 'warning' ? 'yellow' : 'cyan')}>{c.severity}</Text>
              {fitColumns(plain(`  ${scopeName(c.scope)}  ${c.file}:${c.line}`), width - 6 - c.severity.length)}
            </Text>
            {here && editing !== undefined ? (
              <Box paddingLeft={6}>
                <TextInput
                  value={editing}
                  onChange={setEditing}
                  onSubmit={(text) => {
                    if (text.trim() !== '') update(at, { text: text.trim() });
                    setEditing(undefined);
                  }}
                />
              </Box>
            ) : (
              // A rule comes from a file anyone could have written: shown escaped, as the store would refuse it.
              <Text wrap="wrap" dimColor={!c.keep && theme.dim}>{`      ${plain(c.text)}`}</Text>
            )}
          </Box>
        );
      })}
      <Text dimColor={theme.dim}>
        {editing !== undefined
          ? 'Enter saves the text, Esc leaves it as it was'
          : '↑/↓ move · space keep/drop · a all · e edit · s severity · p scope · Enter import · n/Esc write nothing'}
      </Text>
    </Box>
  );
}
