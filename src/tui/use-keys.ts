import { useInput, type Key } from 'ink';
import { createContext, useContext, useLayoutEffect, useRef } from 'react';

/** `pasted`: the input is text the terminal marked as pasted (only handlers that take pastes see it). */
export type KeyHandler = (input: string, key: Key, pasted?: boolean) => void;

/**
 * One subscription to Ink's input for the whole app, handing each key to the
 * handlers registered now. Ink's own `useInput` subscribes in a passive effect,
 * so a key typed right after a new field appears (before that effect ran)
 * would be lost; handlers registered here are in place as soon as the frame
 * that shows them is committed.
 */
export class KeyHub {
  private readonly handlers = new Set<{ current: KeyHandler; paste?: boolean }>();
  private readonly queue: [string, Key, boolean][] = [];
  private draining = false;

  /** `paste`: the handler takes pasted text (a text field); every other handler never sees a paste. */
  add(handler: { current: KeyHandler; paste?: boolean }): () => void {
    this.handlers.add(handler);
    return () => {
      this.handlers.delete(handler);
    };
  }

  /**
   * Hands a key to the handlers. Keys typed ahead arrive as one chunk ("log⏎e"):
   * they are split and handed over one per turn of the event loop, so each
   * sees the screen (and handlers) the previous one led to.
   */
  dispatch(input: string, key: Key, options: { pasted?: boolean } = {}): void {
    // A paste is one piece of text for one field: split into keys, a long one would trickle in a key per turn (and
    // redraw the screen at each), holding back every key pressed after it.
    if (options.pasted === true) this.queue.push([input, key, true]);
    else this.queue.push(...splitChunk(input, key).map(([i, k]): [string, Key, boolean] => [i, k, false]));
    if (!this.draining) this.drain();
  }

  private drain(): void {
    const next = this.queue.shift();
    if (!next) {
      this.draining = false;
      return;
    }
    this.draining = true;
    // Pasted text is text, never a command: a paste holding "dy" must not remove an invariant, nor "q" quit.
    for (const h of [...this.handlers]) if (!next[2] || h.paste) h.current(next[0], next[1], next[2]);
    // React commits this key's update from a setImmediate task (its scheduler's, in Node); a timer
    // runs after it, so the next key meets the handlers of the screen this one led to.
    setTimeout(() => this.drain(), 0);
  }
}

/** The flags of a key that is plain text: none of them set. */
export const PLAIN: Partial<Key> = {
  return: false,
  backspace: false,
  delete: false,
  tab: false,
  escape: false,
  ctrl: false,
  meta: false,
  shift: false,
};

/** One chunk of plain typing as single keys, as Ink reads each alone; anything with an escape sequence or a modifier is left whole. */
export function splitChunk(input: string, key: Key): [string, Key][] {
  const chars = [...input];
  if (chars.length < 2 || input.includes('\u001b') || key.ctrl || key.meta) return [[input, key]];
  return chars.map((c): [string, Key] => {
    if (c === '\r' || c === '\n') return ['', { ...key, ...PLAIN, return: true }];
    if (c === '\u007f' || c === '\b') return ['', { ...key, ...PLAIN, backspace: true }];
    if (c === '\t') return ['', { ...key, ...PLAIN, tab: true }];
    // A Ctrl key as Ink reads one pressed alone (Ctrl-U: "u", ctrl): typed ahead with text, Ctrl-U was dropped as a
    // control character and the text went after the field's old value instead of in its place.
    if (c <= '\u001a') return [String.fromCharCode(c.charCodeAt(0) + 96), { ...key, ...PLAIN, ctrl: true }];
    return [c, { ...key, ...PLAIN, shift: /[A-Z]/.test(c) }];
  });
}

export const KeyHubContext = createContext<KeyHub | null>(null);

/**
 * True under a screen hidden behind the too-small notice (TooSmall.tsx): its keys do nothing until it shows again,
 * so that a key pressed blind (`y` on a removal) never acts on what the user cannot see. Ctrl-C and Ctrl-Z, which
 * run-ink handles before any screen, still work.
 */
export const KeysHiddenContext = createContext(false);

/**
 * Like Ink's `useInput`, through the app's KeyHub when there is one (always,
 * under `runInk`); a component rendered on its own (tests) falls back to `useInput`.
 * `paste`: also hand over text the terminal marked as pasted (text fields only).
 */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean; paste?: boolean } = {}): void {
  const hub = useContext(KeyHubContext);
  const hidden = useContext(KeysHiddenContext);
  const active = (options.isActive ?? true) && !hidden;
  const paste = options.paste ?? false;
  const latest = useRef(handler);
  latest.current = handler;
  useLayoutEffect(() => {
    if (!hub || !active) return;
    return hub.add({ current: (input, key, pasted) => latest.current(input, key, pasted), paste });
  }, [hub, active, paste]);
  useInput((input, key) => latest.current(input, key), { isActive: hub === null && active });
}

/**
 * The keys of a y/N question (default No): y → true; n, Enter or Esc → false. One for every confirmation, so that
 * each answers the same keys.
 */
export function useYesNo(onAnswer: (yes: boolean) => void): void {
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') onAnswer(true);
    else if (input === 'n' || input === 'N' || key.return || key.escape) onAnswer(false);
  });
}
