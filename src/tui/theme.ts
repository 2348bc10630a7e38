import { createContext, useContext } from 'react';

/** Colour names the TUI uses; with colour off every one renders as plain text. */
export type Hue = 'cyan' | 'green' | 'red' | 'yellow' | 'gray' | 'magenta';

export interface Theme {
  color: boolean;
  /** A colour prop for `<Text color>`, or nothing when colour is off (NO_COLOR / --no-color). */
  hue(name: Hue): Hue | undefined;
  /** Whether to dim secondary text (off with colour, as the plain CLI output does). */
  dim: boolean;
  /** The start of a command the screen tells to run: `agents`, or `agents --store DIR` when the run was given one. */
  agents: string;
}

export function makeTheme(color: boolean, agents = 'agents'): Theme {
  return { color, hue: (name) => (color ? name : undefined), dim: color, agents };
}

export const ThemeContext = createContext<Theme>(makeTheme(false));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
