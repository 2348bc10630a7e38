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
  const heading = 'It shadows these now; they come back into effect:';
  const shadows = info.shadow.shadows;
  // The rows of the title, severity, path, the question and one spare row, with one row of the text at least.
  const fixed = clipToRows(title, width, rows).length + 2 + 2 + 1;
  // The copies it shadows, as many as fit under their heading, the last row counting the rest (`invariant show`
  // lists them all): a text many scopes hold would otherwise push the title off the screen.
  const room = Math.max(1, rows - fixed - 1);
  const shown = shadows.length <= room ? shadows.length : Math.max(1, room - 1);
  const more = shadows.length - shown;
  const listRows = shadows.length > 0 ? 1 + shown + (more > 0 ? 1 : 0) : clipToRows(nothing, width, rows).length;
  const text = clipToRows(plain(inv.text), width - 2, Math.max(1, rows - fixed + 1 - listRows));
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
      {shadows.length > 0 ? (
        <Box flexDirection="column">
          <Text color={theme.hue('yellow')} wrap="truncate-end">
            {heading}
          </Text>
          {shadows.slice(0, shown).map((o) => (
            <Text key={o.id} wrap="truncate-end">
              {plain(`  ${describeScope(o.scope)} ${o.id}  ${o.path}`)}
            </Text>
          ))}
          {more > 0 ? (
            <Text dimColor={theme.dim} wrap="truncate-end">
              {fitColumns(`  … and ${more} more (invariant show ${inv.id} lists them all)`, width)}
            </Text>
          ) : null}
        </Box>
      ) : (
        <Text dimColor={theme.dim}>{nothing}</Text>
      )}
      <Text bold>Remove this invariant? [y/N]</Text>
    </Box>
  );
}
