import { Box, Text } from 'ink';
import { useState, type ReactElement } from 'react';
import { type ImportPlan, type PlannedCandidate, type PlannedScope, plannedScopeName } from '../core/import-plan.ts';
import type { StaleImport } from '../core/import-stale.ts';
import { SEVERITIES } from '../core/model.ts';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { TextInput, fieldRows } from './TextInput.tsx';
import { useKeys } from './use-keys.ts';
import { useTheme } from './theme.ts';

/**
 * The review as the user left it: every new candidate as edited, kept or not, each invariant gone from its file
 * (`--prune`) to be removed or not, and the row selected (the candidates' rows first, then the removals').
 */
export interface ReviewState {
  items: (PlannedCandidate & { keep: boolean })[];
  removals?: (StaleImport & { remove: boolean })[];
  at: number;
}

export interface ImportReviewProps {
  plan: ImportPlan;
  /** `--prune`: the invariants gone from their files (plan.stale) are shown too, each removed unless the user keeps it. */
  prune?: boolean;
  width?: number;
  /** The terminal's rows: the review lays its candidates out within them. */
  rows?: number;
  /** The review opened again as it was left, saying why its write was refused (Enter tries again). */
  resume?: ReviewState & { refusal: string };
  /**
   * Enter: the kept candidates, as edited, the review as it was left (to open it again should the write be refused),
   * and the invariants gone from their files the user left to be removed.
   */
  onDone(chosen: PlannedCandidate[], state: ReviewState, removed: StaleImport[]): void;
  /** n or Esc: nothing is written. */
  onCancel(): void;
}

const KEYS = '↑/↓ move · space keep/drop · a all · e edit · s severity · p scope · Enter import · n/Esc write nothing';
/** The keys of a removal's row: it has no text, severity or scope to change. */
const REMOVAL_KEYS = '↑/↓ move · space remove/keep · a all · Enter write · n/Esc write nothing';
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
 * with `prune`, below them each invariant gone from its file, removed or kept
 * (space); Enter writes the kept ones and makes the removals, n or Esc writes
 * nothing. Candidates the store already holds, or said twice, are shown but
 * cannot be kept.
 */
export function ImportReview({ plan, prune = false, width = 80, rows = 24, resume, onDone, onCancel }: ImportReviewProps): ReactElement {
  const theme = useTheme();
  const fresh = plan.candidates.filter((c) => c.status === 'new');
  const [items, setItems] = useState(() => resume?.items ?? fresh.map((c) => ({ ...c, keep: true })));
  const [removals, setRemovals] = useState(
    () => resume?.removals ?? (prune ? (plan.stale ?? []) : []).map((g) => ({ ...g, remove: true })),
  );
  const count = items.length + removals.length;
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
    const r = removals[at - items.length];
    if (key.upArrow || input === 'k') setAt((n) => Math.max(0, n - 1));
    else if (key.downArrow || input === 'j') setAt((n) => Math.min(count - 1, n + 1));
    else if (input === ' ' && c) update(at, { keep: !c.keep });
    else if (input === ' ' && r) setRemovals((all) => all.map((x, i) => (i === at - items.length ? { ...x, remove: !x.remove } : x)));
    else if (input === 'a') {
      // All chosen (kept, or removed) becomes none; anything else, all.
      const all = !(items.every((y) => y.keep) && removals.every((y) => y.remove));
      setItems((xs) => xs.map((x) => ({ ...x, keep: all })));
      setRemovals((xs) => xs.map((x) => ({ ...x, remove: all })));
    } else if (input === 'e' && c) setEditing(c.text);
    else if (input === 's' && c) update(at, { severity: SEVERITIES[(SEVERITIES.indexOf(c.severity) + 1) % SEVERITIES.length]! });
    else if (input === 'p' && c && scopes.length > 1) {
      const i = scopes.findIndex((s) => plannedScopeName(s) === plannedScopeName(c.scope));
      update(at, { scope: scopes[(i + 1) % scopes.length]! });
    } else if (key.return)
      onDone(
        items.filter((x) => x.keep).map(({ keep: _, ...x }) => x),
        { items, removals, at },
        removals.filter((x) => x.remove).map(({ remove: _, ...x }) => x),
      );
    else if (input === 'n' || key.escape) onCancel();
  });

  const kept = items.filter((c) => c.keep).length;
  const held = plan.candidates.length - fresh.length;
  const textColumns = Math.max(1, width - INDENT);
  // On a short terminal the title and the keys take a row each, and the count of the rules left out goes: with two rows
  // each and that count, the frame outgrew a terminal of 5 to 8 rows and scrolled the title off.
  const roomy = rows >= 9;
  const removing = removals.filter((r) => r.remove).length;
  const removalTitle = `${removals.length} invariant${removals.length === 1 ? '' : 's'} gone from ${removals.length === 1 ? 'its file' : 'their files'} (${removing} to remove)`;
  const title = clipToRows(
    fresh.length === 0 && removals.length > 0
      ? `Remove ${removalTitle}`
      : `Import ${fresh.length} rule${fresh.length === 1 ? '' : 's'} as invariants (${kept} kept)${removals.length > 0 ? `; remove ${removalTitle}` : ''}`,
    width,
    roomy ? 2 : 1,
  );
  // A refused write's reason: rows of its own above the keys, or on a short terminal the keys' row, which it needs more.
  const refusal = resume === undefined ? [] : clipToRows(plain(`✗ ${resume.refusal}`), width, roomy ? 4 : 1);
  const refusalInKeys = refusal.length > 0 && !roomy && editing === undefined;
  const keys = at >= items.length ? REMOVAL_KEYS : KEYS;
  const keyLine = refusalInKeys ? refusal : clipToRows(editing === undefined ? keys : empty ? EMPTY_TEXT : EDIT_KEYS, width, roomy ? 2 : 1);
  const refusalLines = roomy ? refusal : [];
  const heldLine = held > 0 && rows >= 6;
  // As the text and JSON reports say (files[].not_english): the rules of such a file were not told from descriptions
  // by their words, so the review is told to judge them, in a line of its own and in each of their headers.
  const foreign = new Set(plan.files.filter((f) => f.notEnglish).map((f) => f.file));
  const foreignLine = foreign.size > 0 && roomy;
  const selected = items[at] ?? removals[at - items.length];
  const selectedText = !selected
    ? 1
    : editing !== undefined
      ? fieldRows(editing, textColumns)
      : clipToRows(plain(selected.text), textColumns, Number.POSITIVE_INFINITY).length;
  const { textRows, shown } = reviewLayout(
    rows,
    title.length + (heldLine ? 1 : 0) + (foreignLine ? 1 : 0) + refusalLines.length + keyLine.length,
    selectedText,
    count,
  );
  // A rule's text, or a removal's, under its row: the selected one as much as fits, the others their first row.
  const ruleText = (text: string, here: boolean, dim: boolean) => (
    <Box paddingLeft={INDENT}>
      <Text dimColor={dim && theme.dim}>
        {here ? clipToRows(plain(text), textColumns, textRows).join('\n') : fitColumns(plain(text), textColumns)}
      </Text>
    </Box>
  );
  const first = Math.min(Math.max(0, at - Math.floor(shown / 2)), Math.max(0, count - shown));
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
              ruleText(c.text, here, !c.keep)
            )}
          </Box>
        );
      })}
      {removals.slice(Math.max(0, first - items.length), Math.max(0, first + shown - items.length)).map((r, i) => {
        const here = Math.max(first, items.length) + i === at;
        // Removed unless kept: the word says which, as the mark alone would read as "kept" beside the rules above.
        return (
          <Box key={r.id} flexDirection="column">
            <Text wrap="truncate-end" inverse={here}>
              {`${here ? '›' : ' '} [${r.remove ? 'x' : ' '}] `}
              <Text color={theme.hue(r.remove ? 'red' : 'green')}>{r.remove ? 'remove' : 'keep'}</Text>
              {fitColumns(plain(`  ${r.id}  was ${r.file}:${r.line}`), width - 6 - (r.remove ? 6 : 4))}
            </Text>
            {ruleText(r.text, here, !r.remove)}
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
