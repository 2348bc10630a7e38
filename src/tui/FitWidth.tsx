import { Box } from 'ink';
import type { ReactElement } from 'react';
import { useTerminalSize } from './use-terminal-size.ts';

/** The widest a form or confirmation is drawn, however wide the terminal (the browser's too). */
export const MAX_FORM_WIDTH = 100;

/**
 * Gives a form or confirmation the terminal's width (up to 100 columns), again after each resize: a width fixed when
 * the screen opened would make its lines wrap once the terminal is narrowed, and Ink, which erases as many rows as it
 * drew, would leave copies of them on the screen. Until the new width reaches the form, the frame Ink redraws at once
 * is clipped to the terminal, for the same reason.
 */
export function FitWidth({ children }: { children: (width: number, rows: number) => ReactElement }): ReactElement {
  const { columns, rows } = useTerminalSize();
  return (
    <Box width="100%" overflow="hidden" flexDirection="column">
      {children(Math.min(columns, MAX_FORM_WIDTH), rows)}
    </Box>
  );
}
