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

export function Help({ width }: { width: number }): ReactElement {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Keys</Text>
      {BROWSER_KEYS.map(([k, what]) => (
        <Text key={k} wrap="truncate-end">
          <Text color={theme.hue('cyan')}>{`  ${k.padEnd(16)}`}</Text>
          {what}
        </Text>
      ))}
      <Text dimColor={theme.dim}>Press any key to go back.</Text>
    </Box>
  );
}
