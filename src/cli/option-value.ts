/**
 * An option with its value as a hint writes it (`--plan PLAN`, `--api-key-env API_KEY_ENV`): the value named by the
 * option's own name, as a missing argument is by its own (`ID`), not a VALUE that says nothing of what to give.
 */
export function optionWithValue(name: string): string {
  return `--${name} ${name.toUpperCase().replaceAll('-', '_')}`;
}
