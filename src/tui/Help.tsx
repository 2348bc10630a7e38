import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { useTheme } from './theme.ts';

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

/** The keys; on a short terminal as many as fit in `height` rows (docs/tui.md lists them all). */
export function Help({ width, height }: { width: number; height?: number }): ReactElement {
  const theme = useTheme();
  const keys = height === undefined ? BROWSER_KEYS : BROWSER_KEYS.slice(0, Math.max(0, height - 2));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Keys</Text>
      {keys.map(([k, what]) => (
        <Text key={k} wrap="truncate-end">
          <Text color={theme.hue('cyan')}>{`  ${k.padEnd(16)}`}</Text>
          {what}
        </Text>
      ))}
      {height === undefined || height >= 2 ? (
        <Text dimColor={theme.dim} wrap="truncate-end">
          Press any key to go back.
        </Text>
      ) : null}
    </Box>
  );
}
