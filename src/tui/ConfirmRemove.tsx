import { Box, Text } from 'ink';
import { fitColumns, plain } from './plain.ts';
import { useKeys } from './use-keys.ts';
import type { ReactElement } from 'react';
import { describeScope } from '../core/model.ts';
import type { ShowResult } from '../service/invariant-service.ts';
import { useTheme } from './theme.ts';

export interface ConfirmRemoveProps {
  info: ShowResult;
  width?: number;
  /** y → true; n, Enter (the default) or Esc → false. */
  onAnswer(yes: boolean): void;
}

/**
 * Shows what removing an invariant would do — its text, scope and file, and
 * the copies it shadows now, which would come back into effect — and asks
 * y/N (default No). Used by `invariant remove` and by the browser's `d`.
 */
export function ConfirmRemove({ info, width = 80, onAnswer }: ConfirmRemoveProps): ReactElement {
  const theme = useTheme();
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') onAnswer(true);
    else if (input === 'n' || input === 'N' || key.return || key.escape) onAnswer(false);
  });
  const inv = info.invariant;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        {'Remove '}
        <Text color={theme.hue('cyan')}>{inv.id}</Text>
        {` from ${describeScope(inv.scope)}?`}
      </Text>
      <Box paddingLeft={2} flexDirection="column">
        <Text wrap="wrap">{plain(inv.text)}</Text>
        <Text dimColor={theme.dim} wrap="truncate-end">
          {fitColumns(
            plain(
              `${inv.severity}${inv.active ? '' : ' · inactive'}${inv.tags.length ? ` · ${inv.tags.map((t) => `#${t}`).join(' ')}` : ''}`,
            ),
            width - 2,
          )}
        </Text>
        <Text dimColor={theme.dim} wrap="truncate-end">
          {plain(inv.path)}
        </Text>
      </Box>
      {info.shadow.shadows.length > 0 ? (
        <Box flexDirection="column">
          <Text color={theme.hue('yellow')}>It shadows these now; they come back into effect:</Text>
          {info.shadow.shadows.map((o) => (
            <Text key={o.id} wrap="truncate-end">
              {plain(`  ${describeScope(o.scope)} ${o.id}  ${o.path}`)}
            </Text>
          ))}
        </Box>
      ) : (
        <Text dimColor={theme.dim}>It shadows nothing; no other copy comes back into effect.</Text>
      )}
      <Text bold>Remove this invariant? [y/N]</Text>
    </Box>
  );
}
