// The add form's live verdict on the typed text (AddForm.tsx holds the steps).
import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { codePointLength } from '../core/names.ts';
import { MAX_TEXT_LENGTH } from '../core/parse-core.ts';
import { describeCharacter, findUnsafe } from '../core/plain-text.ts';
import { clipToRows, fitColumns, plain } from './plain.ts';
import { type AddCheck, duplicateMessage, PENDING_ID } from '../core/shadow.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { nearSentence, relationSentences, unreadCopiesText } from '../present/invariant-write.ts';
import type { NearMatch } from '../service/invariant-service.ts';
import { useTheme } from './theme.ts';

/** Live feedback on the typed text: refused characters, duplicate (both block), shadows, shadowed by, near-duplicates. */
export function AddFeedback({
  check,
  text,
  near = [],
  incomplete,
  inheritedMissing,
  width = 80,
  rows,
}: {
  check: AddCheck | undefined;
  text: string;
  near?: readonly NearMatch[];
  /** The problems of the invalid files left unread (AddContext's): what the text meets is said of the files read. */
  incomplete?: readonly Diagnostic[] | undefined;
  /** Why the policy sources' invariants were not read (AddContext's), with the command that reads them. */
  inheritedMissing?: string | undefined;
  /** The form's width: a line that quotes an invariant is cut to it in terminal columns (plain.ts). */
  width?: number;
  /** At most this many lines, the last counting the rest: a text held in many projects keeps the form on screen. */
  rows?: number;
}): ReactElement | null {
  const theme = useTheme();
  // No row left (a refusal the form shows on a terminal of 5 rows): the refusal says what matters.
  if (rows !== undefined && rows <= 0) return null;
  // A message of its own is cut to the rows it is given: wrapped whole on a narrow terminal, it pushed the title off.
  const fitted = (message: string) => clipToRows(message, width, rows ?? Number.POSITIVE_INFINITY).join('\n');
  const length = codePointLength(text.trim());
  if (length > MAX_TEXT_LENGTH)
    return <Text color={theme.hue('red')}>{fitted(`✗ too long: ${length} characters, the limit is ${MAX_TEXT_LENGTH}`)}</Text>;
  const unsafe = findUnsafe(text.trim(), false);
  if (unsafe)
    return (
      <Text color={theme.hue('red')}>
        {fitted(
          `✗ the text holds ${describeCharacter(unsafe.codePoint)} at character ${unsafe.index + 1}; the store takes plain text only`,
        )}
      </Text>
    );
  if (!check) return <Text dimColor={theme.dim}>checking…</Text>;
  if (text.trim() === '') return <Text dimColor={theme.dim}>{fitted('Type the constraint in natural language.')}</Text>;
  const lines: ReactElement[] = [];
  // The words are the CLI's (src/present, the duplicate's refusal and the notes after a write); the form keeps its marks and colours.
  if (check.duplicate) {
    lines.push(
      <Text key="dup" color={theme.hue('red')} wrap="truncate-end">
        {`✗ ${duplicateMessage(check.duplicate.scope, check.duplicate)}`}
      </Text>,
    );
  }
  const { hides, hiddenBy } = relationSentences({ id: PENDING_ID }, check);
  hides.forEach((line, i) => {
    lines.push(<Text key={`s${check.shadows[i]!.id}`} color={theme.hue('yellow')} wrap="truncate-end">{`↓ ${line}`}</Text>);
  });
  hiddenBy.forEach((line, i) => {
    lines.push(<Text key={`b${check.shadowedBy[i]!.id}`} color={theme.hue('yellow')} wrap="truncate-end">{`↑ ${line}`}</Text>);
  });
  for (const m of near) {
    lines.push(
      <Text key={`n${m.invariant.id}`} color={theme.hue('yellow')} wrap="truncate-end">
        {fitColumns(`≈ ${plain(nearSentence(m))}`, width)}
      </Text>,
    );
  }
  // Files or policy sources left unread: what the text meets may be short, said under it in the words `invariant show` warns with.
  const unread = unreadCopiesText(incomplete, theme.agents, inheritedMissing);
  const whole = unread ? clipToRows(plain(unread), width, Number.POSITIVE_INFINITY).length : 0;
  // The warning takes the rows the lines above leave it (one at least, from two rows up); they keep one at least.
  const left = rows === undefined ? whole : rows <= 1 ? 0 : Math.max(1, rows - Math.max(1, lines.length));
  const warnRows = Math.min(whole, left);
  const lineRows = rows === undefined ? undefined : rows - warnRows;
  // On one row, the first line alone: with the count under it, two.
  if (lineRows !== undefined && lineRows <= 1) lines.splice(1);
  else if (lineRows !== undefined && lines.length > lineRows) {
    const kept = lineRows - 1;
    lines.splice(
      kept,
      lines.length,
      <Text key="more" dimColor={theme.dim}>
        {`… and ${lines.length - kept} more`}
      </Text>,
    );
  }
  if (lines.length === 0)
    lines.push(
      <Text key="ok" color={theme.hue('green')} wrap="truncate-end">
        {unread ? '✓ new in this scope, shadows nothing of the files read' : '✓ new in this scope, shadows nothing'}
      </Text>,
    );
  if (warnRows > 0)
    lines.push(
      <Text key="unread" color={theme.hue('yellow')}>
        {clipToRows(plain(unread!), width, warnRows).join('\n')}
      </Text>,
    );
  return <Box flexDirection="column">{lines}</Box>;
}
