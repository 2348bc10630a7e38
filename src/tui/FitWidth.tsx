import type { ReactElement } from 'react';
import { FitsOrTooSmall } from './TooSmall.tsx';
import { useTerminalSize } from './use-terminal-size.ts';

/** The widest a form or confirmation is drawn, however wide the terminal (the browser's too). */
export const MAX_FORM_WIDTH = 100;

/**
 * Gives a form or confirmation the terminal's width (up to 100 columns), again after each resize: a width fixed when
 * the screen opened would make its lines wrap once the terminal is narrowed, and Ink, which erases as many rows as it
 * drew, would leave copies of them on the screen. Until the new width reaches the form, the frame Ink redraws at once
 * is clipped to the terminal, for the same reason. A terminal too small for any layout shows its size instead, as the
 * browser's does.
 */
export function FitWidth({ children }: { children: (width: number, rows: number) => ReactElement }): ReactElement {
  const size = useTerminalSize();
  return (
    <FitsOrTooSmall size={size} width="100%">
      {children(Math.min(size.columns, MAX_FORM_WIDTH), size.rows)}
    </FitsOrTooSmall>
  );
}
