import { useInput, type Key } from 'ink';
import { createContext, useContext, useLayoutEffect, useRef } from 'react';

export type KeyHandler = (input: string, key: Key) => void;

/**
 * One subscription to Ink's input for the whole app, handing each key to the
 * handlers registered now. Ink's own `useInput` subscribes in a passive effect,
 * so a key typed right after a new field appears (before that effect ran)
 * would be lost; handlers registered here are in place as soon as the frame
 * that shows them is committed.
 */
export class KeyHub {
  private readonly handlers = new Set<{ current: KeyHandler }>();

  add(handler: { current: KeyHandler }): () => void {
    this.handlers.add(handler);
    return () => {
      this.handlers.delete(handler);
    };
  }

  dispatch(input: string, key: Key): void {
    for (const h of [...this.handlers]) h.current(input, key);
  }
}

export const KeyHubContext = createContext<KeyHub | null>(null);

/**
 * Like Ink's `useInput`, through the app's KeyHub when there is one (always,
 * under `runInk`); a component rendered on its own (tests) falls back to `useInput`.
 */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const hub = useContext(KeyHubContext);
  const active = options.isActive ?? true;
  const latest = useRef(handler);
  latest.current = handler;
  useLayoutEffect(() => {
    if (!hub || !active) return;
    return hub.add({ current: (input, key) => latest.current(input, key) });
  }, [hub, active]);
  useInput((input, key) => latest.current(input, key), { isActive: hub === null && active });
}
