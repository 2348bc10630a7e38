import { Box, Text } from 'ink';
import { useState, type ReactElement } from 'react';
import { type ImportPlan, type PlannedCandidate, type PlannedScope, plannedScopeName } from '../core/import-plan.ts';
import { SEVERITIES } from '../core/model.ts';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { TextInput, fieldRows } from './TextInput.tsx';
import { useKeys } from './use-keys.ts';
import { useTheme } from './theme.ts';

/** The review as the user left it: every new candidate as edited, kept or not, and the one selected. */
export interface ReviewState {
  items: (PlannedCandidate & { keep: boolean })[];
  at: number;
}

export interface ImportReviewProps {
  plan: ImportPlan;
  width?: number;
  /** The terminal's rows: the review lays its candidates out within them. */
  rows?: number;
  /** The review opened again as it was left, saying why its write was refused (Enter tries again). */
  resume?: ReviewState & { refusal: string };
  /** Enter: the kept candidates, as edited, and the review as it was left, to open it again should the write be refused. */
  onDone(chosen: PlannedCandidate[], state: ReviewState): void;
  /** n or Esc: nothing is written. */
  onCancel(): void;
}

const KEYS = '↑/↓ move · space keep/drop · a all · e edit · s severity · p scope · Enter import · n/Esc write nothing';
const EDIT_KEYS = 'Enter saves the text, Esc leaves it as it was';
const EMPTY_TEXT = 'the text is empty: type the rule, or Esc to leave it as it was (then space drops it)';
/** Columns a candidate's text is indented by under its line. */
const INDENT = 6;

/**
 * How the review fits `rows` terminal rows: `textRows` rows for the selected candidate's text (the others get one row
 * each), and `shown` candidates. A rule can run to thousands of characters: drawn whole, a few of them made a frame
 * taller than the terminal, which scrolled the title and the selected candidate off the screen.
 */
export function reviewLayout(rows: number, chrome: number, selectedText: number, count: number): { textRows: number; shown: number } {
  // A row spare below the frame: Ink clears the whole screen after a frame as tall as the terminal.
  const room = Math.max(2, rows - 1 - chrome);
  const textRows = Math.max(1, Math.min(selectedText, Math.floor(room / 2) - 1));
  const shown = Math.max(1, Math.min(count, 1 + Math.floor((room - 1 - textRows) / 2)));
  return { textRows, shown };
}

/**
 * The review of an import: each new candidate with its file and line, kept or
 * not (space), its text edited (e), its severity (s) and scope (p) changed;
 * Enter writes the kept ones, n or Esc writes nothing. Candidates the store
 * already holds, or said twice, are shown but cannot be kept.
 */
export function ImportReview({ plan, width = 80, rows = 24, resume, onDone, onCancel }: ImportReviewProps): ReactElement {
  const theme = useTheme();
  const fresh = plan.candidates.filter((c) => c.status === 'new');
  const [items, setItems] = useState(() => resume?.items ?? fresh.map((c) => ({ ...c, keep: true })));
  const [at, setAt] = useState(resume?.at ?? 0);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  // Enter on an emptied text: the field stays open and says why, rather than close as if the old text were saved.
  const [empty, setEmpty] = useState(false);
  const scopes: PlannedScope[] = [{ kind: 'global' }, ...plan.projects.map((p) => ({ kind: 'project' as const, project: p.name }))];
  const update = (n: number, change: Partial<(typeof items)[number]>) =>
    setItems((all) => all.map((c, i) => (i === n ? { ...c, ...change } : c)));

  useKeys((input, key) => {
    if (editing !== undefined) {
      if (key.escape) {
        setEditing(undefined);
        setEmpty(false);
      }
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
      const i = scopes.findIndex((s) => plannedScopeName(s) === plannedScopeName(c.scope));
      update(at, { scope: scopes[(i + 1) % scopes.length]! });
    } else if (key.return)
      onDone(
        items.filter((x) => x.keep).map(({ keep: _, ...x }) => x),
        { items, at },
      );
    else if (input === 'n' || key.escape) onCancel();
  });

  const kept = items.filter((c) => c.keep).length;
  const held = plan.candidates.length - fresh.length;
  const textColumns = Math.max(1, width - INDENT);
  // On a short terminal the title and the keys take a row each, and the count of the rules left out goes: with two rows
  // each and that count, the frame outgrew a terminal of 5 to 8 rows and scrolled the title off.
  const roomy = rows >= 9;
  const title = clipToRows(
    `Import ${fresh.length} rule${fresh.length === 1 ? '' : 's'} as invariants (${kept} kept)`,
    width,
    roomy ? 2 : 1,
  );
  // A refused write's reason: rows of its own above the keys, or on a short terminal the keys' row, which it needs more.
  const refusal = resume === undefined ? [] : clipToRows(plain(`✗ ${resume.refusal}`), width, roomy ? 4 : 1);
  const refusalInKeys = refusal.length > 0 && !roomy && editing === undefined;
  const keyLine = refusalInKeys ? refusal : clipToRows(editing === undefined ? KEYS : empty ? EMPTY_TEXT : EDIT_KEYS, width, roomy ? 2 : 1);
  const refusalLines = roomy ? refusal : [];
  const heldLine = held > 0 && rows >= 6;
  // As the text and JSON reports say (files[].not_english): the rules of such a file were not told from descriptions
  // by their words, so the review is told to judge them, in a line of its own and in each of their headers.
  const foreign = new Set(plan.files.filter((f) => f.notEnglish).map((f) => f.file));
  const foreignLine = foreign.size > 0 && roomy;
  const selected = items[at];
  const selectedText = !selected
    ? 1
    : editing !== undefined
      ? fieldRows(editing, textColumns)
      : clipToRows(plain(selected.text), textColumns, Number.POSITIVE_INFINITY).length;
  const { textRows, shown } = reviewLayout(
    rows,
    title.length + (heldLine ? 1 : 0) + (foreignLine ? 1 : 0) + refusalLines.length + keyLine.length,
    selectedText,
    items.length,
  );
  const first = Math.min(Math.max(0, at - Math.floor(shown / 2)), Math.max(0, items.length - shown));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{title.join('\n')}</Text>
      {heldLine ? <Text dimColor={theme.dim}>{fitColumns(`${held} more already in the store or said twice: left out`, width)}</Text> : null}
      {foreignLine ? (
        <Text color={theme.hue('yellow')}>
          {fitColumns(plain(`not English: ${[...foreign].join(', ')}: each list item is taken as it stands; review them`), width)}
        </Text>
      ) : null}
      {items.slice(first, first + shown).map((c, i) => {
        const n = first + i;
        const here = n === at;
        return (
          <Box key={c.n} flexDirection="column">
            <Text wrap="truncate-end" inverse={here}>
              {`${here ? '›' : ' '} [${c.keep ? 'x' : ' '}] `}
              <Text color={theme.hue(c.severity === 'error' ? 'red' : c.severity === 'warning' ? 'yellow' : 'cyan')}>{c.severity}</Text>
              {fitColumns(
                plain(`  ${plannedScopeName(c.scope)}  ${c.file}:${c.line}${foreign.has(c.file) ? '  not English' : ''}`),
                width - 6 - c.severity.length,
              )}
            </Text>
            {here && editing !== undefined ? (
              <Box paddingLeft={INDENT}>
                <TextInput
                  value={editing}
                  fit={{ columns: textColumns, rows: textRows }}
                  onChange={(text) => {
                    setEditing(text);
                    setEmpty(false);
                  }}
                  onSubmit={(text) => {
                    if (text.trim() === '') {
                      setEmpty(true);
                      return;
                    }
                    update(at, { text: text.trim() });
                    setEditing(undefined);
                  }}
                />
              </Box>
            ) : (
              // A rule comes from a file anyone could have written: shown escaped, as the store would refuse it. The
              // selected one shows as much as fits, the others their first row.
              <Box paddingLeft={INDENT}>
                <Text dimColor={!c.keep && theme.dim}>
                  {here ? clipToRows(plain(c.text), textColumns, textRows).join('\n') : fitColumns(plain(c.text), textColumns)}
                </Text>
              </Box>
            )}
          </Box>
        );
      })}
      {refusalLines.length > 0 ? <Text color={theme.hue('red')}>{refusalLines.join('\n')}</Text> : null}
      {refusalInKeys ? (
        <Text color={theme.hue('red')}>{keyLine.join('\n')}</Text>
      ) : empty ? (
        <Text color={theme.hue('yellow')}>{keyLine.join('\n')}</Text>
      ) : (
        <Text dimColor={theme.dim}>{keyLine.join('\n')}</Text>
      )}
    </Box>
  );
}
