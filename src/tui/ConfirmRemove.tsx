import { Box, Text } from 'ink';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { useKeys } from './use-keys.ts';
import type { ReactElement } from 'react';
import { describeScope } from '../core/model.ts';
import type { ShowResult } from '../service/invariant-service.ts';
import { useTheme } from './theme.ts';

export interface ConfirmRemoveProps {
  info: ShowResult;
  width?: number;
  /** The terminal's height: a long text is cut so that the question and what it is about stay on screen. */
  rows?: number;
  /** y → true; n, Enter (the default) or Esc → false. */
  onAnswer(yes: boolean): void;
}

/**
 * Shows what removing an invariant would do — its text, scope and file, and
 * the copies it shadows now, which would come back into effect — and asks
 * y/N (default No). Used by `invariant remove` and by the browser's `d`.
 */
export function ConfirmRemove({ info, width = 80, rows = 24, onAnswer }: ConfirmRemoveProps): ReactElement {
  const theme = useTheme();
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') onAnswer(true);
    else if (input === 'n' || input === 'N' || key.return || key.escape) onAnswer(false);
  });
  const inv = info.invariant;
  const title = `Remove ${inv.id} from ${describeScope(inv.scope)}?`;
  const nothing = 'It shadows nothing; no other copy comes back into effect.';
  // Every row but the text's: the title, severity, path, what it shadows, the question, and one spare row.
  const others =
    clipToRows(title, width, rows).length +
    2 +
    (info.shadow.shadows.length > 0 ? 1 + info.shadow.shadows.length : clipToRows(nothing, width, rows).length) +
    2;
  const text = clipToRows(plain(inv.text), width - 2, Math.max(1, rows - others));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        {'Remove '}
        <Text color={theme.hue('cyan')}>{inv.id}</Text>
        {` from ${describeScope(inv.scope)}?`}
      </Text>
      <Box paddingLeft={2} flexDirection="column">
        {text.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one text, in order.
          <Text key={i} wrap="truncate-end">
            {line}
          </Text>
        ))}
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
        <Text dimColor={theme.dim}>{nothing}</Text>
      )}
      <Text bold>Remove this invariant? [y/N]</Text>
    </Box>
  );
}
