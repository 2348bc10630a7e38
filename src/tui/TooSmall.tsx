import { Box, Text } from 'ink';
import type { ReactElement, ReactNode } from 'react';
import { clipToRows } from './plain.ts';
import type { TerminalSize } from './use-terminal-size.ts';
import { KeysHiddenContext } from './use-keys.ts';

/** The smallest terminal the browser lays out in: its title, one row of the list, its key line and a spare row. */
export const MIN_SIZE: TerminalSize = { columns: 20, rows: 5 };

export const tooSmall = (size: TerminalSize): boolean => size.columns < MIN_SIZE.columns || size.rows < MIN_SIZE.rows;

/**
 * What a terminal smaller than MIN_SIZE shows instead of a layout that would wrap its lines and scroll the screen
 * (leaving copies Ink cannot erase): the sizes, within the terminal. The screen it stands for stays open behind it.
 */
export function TooSmall({ size }: { size: TerminalSize }): ReactElement {
  const text = `Terminal too small: ${size.columns}×${size.rows}; agents needs ${MIN_SIZE.columns}×${MIN_SIZE.rows}.`;
  return (
    <Box width={size.columns}>
      <Text>{clipToRows(text, size.columns, Math.max(1, size.rows - 1)).join('\n')}</Text>
    </Box>
  );
}

/**
 * A screen that gives way to TooSmall while the terminal is smaller than MIN_SIZE: the browser, every form and
 * confirmation. The screen stays mounted behind it, so that a form half filled in survives the resize; the frame Ink
 * redraws at once on a resize is clipped to the terminal (or to the width given). Its keys do nothing meanwhile.
 */
export function FitsOrTooSmall({
  size,
  width,
  children,
}: {
  size: TerminalSize;
  width: number | '100%';
  children: ReactNode;
}): ReactElement {
  const small = tooSmall(size);
  return (
    <Box width={width} overflow="hidden" flexDirection="column">
      {small ? <TooSmall size={size} /> : null}
      <Box display={small ? 'none' : 'flex'} flexDirection="column">
        <KeysHiddenContext.Provider value={small}>{children}</KeysHiddenContext.Provider>
      </Box>
    </Box>
  );
}
