import { Box, Text, useInput } from 'ink';
import { useState, type ReactElement } from 'react';
import { useTheme } from './theme.ts';

export interface SelectItem<V> {
  label: string;
  value: V;
  /** Shown dimmed after the label. */
  hint?: string;
}

export interface SelectListProps<V> {
  items: readonly SelectItem<V>[];
  onSelect(value: V): void;
  initialIndex?: number;
  /** Rows shown at once; the list scrolls under a fixed window. */
  height?: number;
  width?: number;
  focus?: boolean;
}

/** Moves with ↑/↓ (or k/j), PgUp/PgDn, Home/End; Enter picks. Renders only the visible rows. */
export function SelectList<V>({ items, onSelect, initialIndex = 0, height = 10, width = 80, focus = true }: SelectListProps<V>): ReactElement {
  const theme = useTheme();
  const [index, setIndex] = useState(Math.min(Math.max(initialIndex, 0), Math.max(items.length - 1, 0)));
  const move = (to: number) => setIndex(Math.min(Math.max(to, 0), Math.max(items.length - 1, 0)));
  useInput(
    (input, key) => {
      if (key.upArrow || input === 'k') move(index - 1);
      else if (key.downArrow || input === 'j') move(index + 1);
      else if (key.pageUp) move(index - height);
      else if (key.pageDown) move(index + height);
      else if (key.home) move(0);
      else if (key.end) move(items.length - 1);
      else if (key.return && items[index]) onSelect(items[index].value);
    },
    { isActive: focus },
  );
  const top = Math.min(Math.max(0, index - height + 1), Math.max(0, items.length - height), index);
  const shown = items.slice(Math.max(0, top), Math.max(0, top) + height);
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((item, i) => {
        const selected = Math.max(0, top) + i === index;
        return (
          <Text key={`${Math.max(0, top) + i}`} wrap="truncate-end" inverse={selected}>
            {selected ? '› ' : '  '}
            {item.label}
            {item.hint ? <Text dimColor={theme.dim}>{`  ${item.hint}`}</Text> : null}
          </Text>
        );
      })}
      {items.length > height ? <Text dimColor={theme.dim}>{`  ${index + 1}/${items.length}`}</Text> : null}
    </Box>
  );
}
