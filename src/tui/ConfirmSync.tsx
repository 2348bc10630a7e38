import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { syncEntries } from '../present/plan-sync.ts';
import type { SyncResult } from '../service/plan-service.ts';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { useYesNo } from './use-keys.ts';
import { type Hue, useTheme } from './theme.ts';

export interface ConfirmSyncProps {
  preview: SyncResult;
  width?: number;
  /** The terminal's rows: the changes listed are those that fit, the rest counted. */
  rows?: number;
  /** y → true; n, Enter (the default) or Esc → false. */
  onAnswer(yes: boolean): void;
}

/** Rows a change's texts take at most. */
const TEXT_ROWS = 2;

const QUESTION = 'Apply these changes? [y/N]';

/** One change or skip as drawn: its coloured word, the rest of its first row, and its rows under it (indented). */
interface Entry {
  key: string;
  word: string;
  hue?: Hue;
  dim?: boolean;
  rows: string[];
  /** Rows indented under the first, which they explain. */
  under: string[];
}

/**
 * The changes and skips in the words of `plan sync` (syncEntries), each line cut to `TEXT_ROWS` rows of the width: the
 * word and the rest of its first row, then the rows after, and the lines under it indented.
 */
function entries(preview: SyncResult, width: number): Entry[] {
  const columns = Math.max(1, width - 2);
  const hue = { changed: 'yellow', removed: 'red', added: 'green' } as const;
  return syncEntries(preview).map((e, i) => {
    const rows = clipToRows(plain(`${e.word}${e.rest}`), columns, TEXT_ROWS);
    return {
      key: `${i}`,
      word: e.word,
      ...(e.word === 'skipped' ? { dim: true } : { hue: hue[e.word] }),
      rows: [rows[0]!.slice(e.word.length), ...rows.slice(1)],
      under: e.under.flatMap((u) => clipToRows(plain(u), Math.max(1, columns - 4), TEXT_ROWS)),
    };
  });
}

/**
 * What `plan sync` would change in a plan — each promoted invariant changed
 * (before → after), removed or added, and what it leaves alone — then y/N
 * (default No), as the remove confirmation asks. A sync of many changes lists
 * those that fit the terminal and counts the rest: a list taller than the
 * terminal scrolled the title away, and Ink, which erases as many rows as it
 * drew, left copies of it on the screen at each redraw.
 */
export function ConfirmSync({ preview, width = 80, rows = 24, onAnswer }: ConfirmSyncProps): ReactElement {
  const theme = useTheme();
  useYesNo(onAnswer);
  const n = preview.changes.length;
  const title = `Sync plan ${preview.plan.id} with its action template: ${n} change${n === 1 ? '' : 's'}`;
  const all = entries(preview, width);
  // A row spare below the frame (Ink clears the whole screen after a frame as tall as the terminal), the title, the
  // lines under the list (the question two rows on a narrow terminal). The title gives up rows first, so that the count
  // of the changes left out, the line on what stays and the question fit on a narrow, short terminal too.
  const question = clipToRows(QUESTION, width, 2);
  const titleLines = clipToRows(title, width, Number.POSITIVE_INFINITY);
  const titleRows = Math.max(1, Math.min(titleLines.length, rows - 1 - 2 - question.length));
  const room = rows - 1 - titleRows - 1 - question.length;
  const height = (e: Entry) => e.rows.length + e.under.length;
  let shown = all.length;
  if (all.reduce((sum, e) => sum + height(e), 0) > room) {
    let used = 1;
    shown = 0;
    while (shown < all.length && used + height(all[shown]!) <= room) used += height(all[shown++]!);
  }
  const more = all.length - shown;
  return (
    <Box flexDirection="column" width={width}>
      {titleRows >= titleLines.length ? (
        <Text bold>
          {'Sync plan '}
          <Text color={theme.hue('cyan')}>{preview.plan.id}</Text>
          {` with its action template: ${n} change${n === 1 ? '' : 's'}`}
        </Text>
      ) : (
        <Text bold>{titleRows === 1 ? fitColumns(title, width) : clipToRows(title, width, titleRows).join('\n')}</Text>
      )}
      {all.slice(0, shown).map((e) => (
        <Box key={e.key} flexDirection="column" paddingLeft={2}>
          <Text dimColor={e.dim === true && theme.dim}>
            {e.hue ? <Text color={theme.hue(e.hue)}>{e.word}</Text> : e.word}
            {e.rows.join('\n')}
          </Text>
          {e.under.length > 0 ? (
            <Box paddingLeft={4}>
              <Text>{e.under.join('\n')}</Text>
            </Box>
          ) : null}
        </Box>
      ))}
      {more > 0 ? (
        <Box paddingLeft={2}>
          <Text dimColor={theme.dim}>{fitColumns(`… and ${more} more (plan sync --dry-run lists them all)`, Math.max(1, width - 2))}</Text>
        </Box>
      ) : null}
      <Text dimColor={theme.dim}>{fitColumns('Invariants added to the plan by hand are not touched.', width)}</Text>
      <Text bold>{question.join('\n')}</Text>
    </Box>
  );
}
