import { Box, Text } from 'ink';
import { clipToRows, fitColumns, plain, tailRows, withoutLastCharacter } from './plain.ts';
import { useKeys } from './use-keys.ts';
import { useRef, type ReactElement } from 'react';
import { useTheme } from './theme.ts';

export interface TextInputProps {
  value: string;
  onChange(value: string): void;
  onSubmit?(value: string): void;
  placeholder?: string;
  /** Only the focused input takes keys. */
  focus?: boolean;
  /** Show no more than the end of the value that fits in `rows` rows of `columns` columns, so a long one keeps the form within the terminal. */
  fit?: { columns: number; rows: number };
}

/**
 * A one-line text field: typing and pasting insert at the end, Backspace
 * deletes, Ctrl-U clears, Enter submits. Keys with Ctrl or Meta, Tab and
 * Escape are left to the screen around it.
 */
export function TextInput({ value, onChange, onSubmit, placeholder, focus = true, fit }: TextInputProps): ReactElement {
  const theme = useTheme();
  // Keys can reach a handler of the previous render (Ink subscribes in an effect): keep the latest value in a ref.
  const latest = useRef(value);
  latest.current = value;
  const change = (next: string) => {
    latest.current = next;
    onChange(next);
  };
  useKeys(
    (input, key) => {
      const value = latest.current;
      if (key.return) return onSubmit?.(value);
      if (key.backspace || key.delete) return change(withoutLastCharacter(value));
      if (key.ctrl && input === 'u') return change('');
      if (
        key.ctrl ||
        key.meta ||
        key.escape ||
        key.tab ||
        key.upArrow ||
        key.downArrow ||
        key.leftArrow ||
        key.rightArrow ||
        key.pageUp ||
        key.pageDown
      )
        return;
      // Fast typing and pastes arrive as one chunk: apply it character by character.
      let next = value;
      const chars = [...input];
      for (let i = 0; i < chars.length; i++) {
        const c = chars[i]!;
        if (c === '\u007f' || c === '\b') next = withoutLastCharacter(next);
        else if (c === '\r' || c === '\n') {
          if (i === chars.length - 1) {
            change(next);
            return onSubmit?.(next);
          }
          next += ' '; // an invariant is one line: a pasted line break becomes a space
        } else if (c === '\t') next += ' ';
        else if (c >= ' ') next += c;
      }
      if (next !== value) change(next);
    },
    { isActive: focus, paste: true },
  );
  if (value === '' && placeholder) {
    return (
      <Text>
        <Text inverse> </Text>
        <Text dimColor={theme.dim}>{fit ? fitColumns(placeholder, fit.columns - 1) : placeholder}</Text>
      </Text>
    );
  }
  // What is typed or pasted is shown escaped, as every output is: a control or bidirectional character in a paste
  // must not move the cursor or reorder the line (the store refuses it on saving; the form says so first).
  return (
    <Text>
      {fit ? fitted(plain(value), fit, focus) : plain(value)}
      {focus ? <Text inverse> </Text> : null}
    </Text>
  );
}

/** A column for the cursor's cell, measured with the text it follows. */
const CURSOR_CELL = '_';

/** The rows a focused field of `columns` columns takes for `value` as a whole, its cursor's cell counted. */
export function fieldRows(value: string, columns: number): number {
  return clipToRows(plain(value) + CURSOR_CELL, columns, Number.POSITIVE_INFINITY).length;
}

/**
 * `text` in the field's rows, broken here rather than by Ink, the cursor's cell counted on the last: a text that
 * filled its rows exactly put the cursor on a row more, and Ink's own wrap of a row of wide characters ran a column
 * past the field, which the terminal wrapped again, leaving a stale row on the screen.
 */
function fitted(text: string, fit: { columns: number; rows: number }, cursor: boolean): string {
  const measured = cursor ? text + CURSOR_CELL : text;
  const rows = clipToRows(measured, fit.columns, Number.POSITIVE_INFINITY);
  const shown = rows.length <= fit.rows ? rows.join('\n') : tailRows(measured, fit.columns, fit.rows);
  return cursor ? shown.slice(0, -CURSOR_CELL.length) : shown;
}

/** A one-line answer that may be left empty: a label, then the text being typed; Enter goes on. */
export function OptionalLine({
  label,
  value,
  fit,
  onChange,
  onSubmit,
}: {
  label: string;
  value: string;
  fit: { columns: number; rows: number };
  onChange(v: string): void;
  onSubmit(): void;
}): ReactElement {
  return (
    <Box flexDirection="column">
      <Text>
        {/* Cut to a row on a narrow terminal: wrapped whole, the question pushed the form's title off a short one. */}
        {fitColumns(label, Math.max(1, fit.columns - 1))}
        <TextInput
          value={value}
          fit={fit}
          onChange={onChange}
          onSubmit={(v) => {
            onChange(v);
            onSubmit();
          }}
        />
      </Text>
    </Box>
  );
}
