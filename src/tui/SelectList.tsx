import { Box, Text } from 'ink';
import { useKeys } from './use-keys.ts';
import { useRef, useState, type ReactElement } from 'react';
import { fitColumns } from './plain.ts';
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
  /** A question drawn on the row above the list. */
  label?: string;
  /**
   * Show "n/N" under a list longer than `height`; `'label'` puts it after `label` instead, where the screen has no row
   * for it (off without a label).
   */
  position?: boolean | 'label';
  /** Keys the list does not use, with the item under the cursor (e.g. `e` in the browser's scope picker). */
  onKey?(input: string, value: V | undefined): void;
}

/** Moves with ↑/↓ (or k/j), PgUp/PgDn, Home/End; Enter picks. Renders only the visible rows. */
export function SelectList<V>({
  items,
  onSelect,
  initialIndex = 0,
  height = 10,
  width = 80,
  focus = true,
  position = true,
  label,
  onKey,
}: SelectListProps<V>): ReactElement {
  const theme = useTheme();
  const [index, setIndex] = useState(Math.min(Math.max(initialIndex, 0), Math.max(items.length - 1, 0)));
  // Keys can reach a handler of the previous render (Ink subscribes in an effect): read the index from a ref.
  const current = useRef(index);
  current.current = index;
  const move = (by: number) => {
    const to = Math.min(Math.max(current.current + by, 0), Math.max(items.length - 1, 0));
    current.current = to;
    setIndex(to);
  };
  useKeys(
    (input, key) => {
      if (key.upArrow) move(-1);
      else if (key.downArrow) move(1);
      else if (/^[jk]+$/.test(input)) for (const c of input) move(c === 'j' ? 1 : -1);
      else if (key.pageUp) move(-height);
      else if (key.pageDown) move(height);
      else if (key.home) move(-items.length);
      else if (key.end) move(items.length);
      else if (key.return && items[current.current]) onSelect(items[current.current]!.value);
      else if (onKey && input !== '') onKey(input, items[current.current]?.value);
    },
    { isActive: focus },
  );
  const top = Math.min(Math.max(0, index - height + 1), Math.max(0, items.length - height), index);
  const shown = items.slice(Math.max(0, top), Math.max(0, top) + height);
  const cut = items.length > height;
  const where = position === 'label' && cut ? ` ${index + 1}/${items.length}` : '';
  return (
    <Box flexDirection="column" width={width}>
      {label !== undefined ? (
        <Text wrap="truncate-end">
          {/* A question longer than the row is cut before the position, which would otherwise be the part cut off. */}
          {where ? fitColumns(label, width - where.length) : label}
          {where ? <Text dimColor={theme.dim}>{where}</Text> : null}
        </Text>
      ) : null}
      {shown.map((item, i) => {
        const selected = Math.max(0, top) + i === index;
        // Cut as one line after the two-column marker, so that its "…" stays when a wide character crosses the edge (plain.ts).
        const hint = item.hint ? `  ${item.hint}` : '';
        const line = fitColumns(item.label + hint, width - 2);
        const label = line.slice(0, item.label.length);
        const rest = line.slice(label.length);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: keyed by position in the whole list; items have no identity of their own.
          <Text key={`${Math.max(0, top) + i}`} wrap="truncate-end" inverse={selected}>
            {selected ? '› ' : '  '}
            {label}
            {rest ? <Text dimColor={theme.dim}>{rest}</Text> : null}
          </Text>
        );
      })}
      {position === true && cut ? <Text dimColor={theme.dim}>{`  ${index + 1}/${items.length}`}</Text> : null}
    </Box>
  );
}
