import { useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { type TerminalSize, terminalSize } from '../present/terminal-size.ts';

export type { TerminalSize };

/** The terminal's size (`terminalSize`: 80×24 where it reports 0), updated when it is resized (so the screen redraws to fit). */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => terminalSize(stdout);
  const [size, setSize] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read only reads stdout, which is the dependency.
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
