import { Box, Text } from 'ink';
import { useState, type ReactElement } from 'react';
import { clipToRows } from './plain.ts';
import { useTheme } from './theme.ts';
import { useKeys } from './use-keys.ts';

/** The browser's keys, in the order a newcomer needs them. */
export const BROWSER_KEYS: readonly [string, string][] = [
  ['↑ ↓  k j', 'move'],
  ['PgUp PgDn  g G', 'page, first, last'],
  ['Enter', 'show or hide the detail pane'],
  ['/', 'filter by regex (live; Enter keeps it, Esc clears it)'],
  ['s', 'switch scope: all, global, a project, an action, a plan'],
  ['e', 'effective set of the project or plan, on/off'],
  ['a', 'add an invariant'],
  ['d', 'remove the selected invariant (asks y/N)'],
  ['?', 'this help'],
  ['q  Esc', 'quit (Esc clears a filter first)'],
  ['Ctrl-C', 'cancel (exit 130)'],
];

/** Columns of the keys beside their words: two of indent and the widest key, with room after it. */
const KEY_COLUMNS = 18;
/** Below this many columns for its words, a key's words go under it, where they have the row's width. */
const WORDS_BESIDE = 20;

/** One row of the help: the key (or the blank under it) and a row of its words. */
interface HelpRow {
  key: string;
  words: string;
}

/**
 * The keys' rows at `width`: each key's words wrapped beside it, or, on a narrow terminal, under it; never cut, so
 * that every word of the help shows at any width the browser draws.
 */
function helpRows(width: number): HelpRow[] {
  const beside = width - KEY_COLUMNS >= WORDS_BESIDE;
  return BROWSER_KEYS.flatMap(([k, what]): HelpRow[] => {
    if (beside) {
      return clipToRows(what, width - KEY_COLUMNS, Number.POSITIVE_INFINITY).map((words, i) => ({
        key: i === 0 ? `  ${k}`.padEnd(KEY_COLUMNS) : ' '.repeat(KEY_COLUMNS),
        words,
      }));
    }
    return [
      { key: `  ${k}`, words: '' },
      ...clipToRows(what, width - 4, Number.POSITIVE_INFINITY).map((words) => ({ key: '    ', words })),
    ];
  });
}

/** Whether the whole help, its heading and its last line, fits in `height` rows; else it scrolls. */
export function helpFits(width: number, height: number): boolean {
  return helpRows(width).length + 2 <= height;
}

/**
 * The keys, in `height` rows. Where they do not all fit (a short or narrow terminal), ↑↓ (k j, PgUp PgDn, space)
 * scroll them and any other key goes back; where they fit, any key goes back.
 */
export function Help({ width, height, onClose }: { width: number; height: number; onClose(): void }): ReactElement {
  const theme = useTheme();
  const rows = helpRows(width);
  const fits = helpFits(width, height);
  // Scrolled, the heading stays where there is a row for it besides two of the keys.
  const heading = fits || height >= 3;
  const body = fits ? rows.length : Math.max(1, height - (heading ? 1 : 0));
  const last = Math.max(0, rows.length - body);
  const [top, setTop] = useState(0);
  const at = Math.min(top, last);
  useKeys((input, key) => {
    if (fits) return onClose();
    const page = Math.max(1, body - 1);
    if (key.downArrow || input === 'j') setTop(Math.min(last, at + 1));
    else if (key.upArrow || input === 'k') setTop(Math.max(0, at - 1));
    else if (key.pageDown || input === ' ') setTop(Math.min(last, at + page));
    else if (key.pageUp) setTop(Math.max(0, at - page));
    else onClose();
  });
  return (
    <Box flexDirection="column" width={width}>
      {heading ? (
        <Text bold wrap="truncate-end">
          Keys
          {fits ? null : <Text dimColor={theme.dim} bold={false}>{`  ${at + 1}–${at + body}/${rows.length}`}</Text>}
        </Text>
      ) : null}
      {rows.slice(at, at + body).map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row is its place in the help, which scrolling moves.
        <Text key={at + i} wrap="truncate-end">
          <Text color={theme.hue('cyan')}>{row.key}</Text>
          {row.words}
        </Text>
      ))}
      {fits ? (
        <Text dimColor={theme.dim} wrap="truncate-end">
          Press any key to go back.
        </Text>
      ) : null}
    </Box>
  );
}
