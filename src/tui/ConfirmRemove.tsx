import { Box, Text } from 'ink';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { useYesNo } from './use-keys.ts';
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

const QUESTION = 'Remove this invariant? [y/N]';

/**
 * The rows the remove confirmation gives its parts within `rows` terminal rows, one spare below (Ink clears the whole
 * screen after a frame as tall as the terminal): the question, a row of the title and a row of the text always; then
 * what the removal brings back into effect, the consequence the question is about (the copies' heading and one line,
 * or the lines saying there are none); then the rest of the title, the severity and the file, as rows are left; then
 * more copies, then more of the text. `listed`: the rows under the heading (copies and the count of the rest), or of
 * the lines saying there are none. On a short terminal the frame so never outgrows it, which scrolled the title, the
 * line naming the invariant, away.
 */
export function removeLayout(
  rows: number,
  parts: { title: number; question: number; text: number; shadows: number; nothing: number },
): { titleRows: number; textRows: number; listed: number; severity: boolean; path: boolean } {
  let left = rows - 1 - parts.question - 1;
  const take = (n: number) => {
    const k = Math.max(0, Math.min(n, left));
    left -= k;
    return k;
  };
  let titleRows = Math.max(1, take(1));
  let listed = parts.shadows > 0 ? (left >= 2 ? take(2) - 1 : 0) : take(parts.nothing);
  titleRows += take(parts.title - titleRows);
  const severity = take(1) === 1;
  const path = take(1) === 1;
  if (parts.shadows > 0 && listed > 0) listed += take(parts.shadows - 1);
  return { titleRows, textRows: 1 + take(parts.text - 1), listed, severity, path };
}

/** The copies' heading, the longest that fits on one row: what comes back into effect is said at any width. */
const HEADINGS = ['It shadows these now; they come back into effect:', 'These come back into effect:', 'Back into effect:'];

/**
 * Shows what removing an invariant would do — its text, scope and file, and
 * the copies it shadows now, which would come back into effect — and asks
 * y/N (default No). Used by `invariant remove` and by the browser's `d`.
 */
export function ConfirmRemove({ info, width = 80, rows = 24, onAnswer }: ConfirmRemoveProps): ReactElement {
  const theme = useTheme();
  useYesNo(onAnswer);
  const inv = info.invariant;
  const title = `Remove ${inv.id} from ${describeScope(inv.scope)}?`;
  // Files left unread (invalid) may hold a copy it shadows: nothing coming back is said only of the files read, as remove's report says it.
  const nothing =
    (info.incomplete?.length ?? 0) > 0
      ? 'It shadows nothing of the files read; a copy in a file not read may come back into effect.'
      : 'It shadows nothing; no other copy comes back into effect.';
  const heading = HEADINGS.find((h) => h.length <= width) ?? HEADINGS.at(-1)!;
  const shadows = info.shadow.shadows;
  const question = clipToRows(QUESTION, width, 2);
  const titleLines = clipToRows(title, width, Number.POSITIVE_INFINITY);
  const { titleRows, textRows, listed, severity, path } = removeLayout(rows, {
    title: titleLines.length,
    question: question.length,
    text: clipToRows(plain(inv.text), width - 2, rows).length,
    shadows: shadows.length,
    nothing: clipToRows(nothing, width, rows).length,
  });
  // The copies it shadows, as many as fit under their heading, the last row counting the rest (`invariant show`
  // lists them all): a text many scopes hold would otherwise push the title off the screen.
  const shown = shadows.length <= listed ? shadows.length : Math.max(0, listed - 1);
  const more = shadows.length - shown;
  const text = clipToRows(plain(inv.text), width - 2, textRows);
  return (
    <Box flexDirection="column" width={width}>
      {titleRows >= titleLines.length ? (
        <Text bold>
          {'Remove '}
          <Text color={theme.hue('cyan')}>{inv.id}</Text>
          {` from ${describeScope(inv.scope)}?`}
        </Text>
      ) : (
        <Text bold>{titleRows === 1 ? fitColumns(title, width) : clipToRows(title, width, titleRows).join('\n')}</Text>
      )}
      <Box paddingLeft={2} flexDirection="column">
        {text.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one text, in order.
          <Text key={i} wrap="truncate-end">
            {line}
          </Text>
        ))}
        {severity ? (
          <Text dimColor={theme.dim} wrap="truncate-end">
            {fitColumns(
              plain(
                `${inv.severity}${inv.active ? '' : ' · inactive'}${inv.tags.length ? ` · ${inv.tags.map((t) => `#${t}`).join(' ')}` : ''}`,
              ),
              width - 2,
            )}
          </Text>
        ) : null}
        {path ? (
          <Text dimColor={theme.dim} wrap="truncate-end">
            {fitColumns(plain(inv.path), width - 2)}
          </Text>
        ) : null}
      </Box>
      {shadows.length > 0 && listed > 0 ? (
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
              {fitColumns(`  ${shown > 0 ? '… and ' : ''}${more} more (invariant show ${inv.id} lists them all)`, width)}
            </Text>
          ) : null}
        </Box>
      ) : listed > 0 ? (
        <Text dimColor={theme.dim}>{clipToRows(nothing, width, listed).join('\n')}</Text>
      ) : null}
      <Text bold>{question.join('\n')}</Text>
    </Box>
  );
}
