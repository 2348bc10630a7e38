// The front matter values of the agents' instruction files (docs/export.md, "Targets"): YAML scalars and the lists of
// globs each agent reads. Pure.
import { UsageError } from './errors.ts';
import { commaFreeGlobs } from './globs.ts';

/**
 * A YAML scalar for a front matter value: plain when that is safe, else double-quoted (JSON is valid YAML).
 * What a YAML reader could take for a number (`2024`, `1e3`, `.5`, `.inf`) is quoted, so a glob stays a string;
 * so is a lone `-`, which plain would open a block sequence no reader takes after a key.
 */
export function yamlScalar(value: string): string {
  return /^[A-Za-z0-9_./-][A-Za-z0-9_./*?{}[\],!-]*$/.test(value) &&
    value !== '-' &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(value) &&
    !/^[-+]?(\.?[0-9]|\.(inf|nan)$)/i.test(value)
    ? value
    : JSON.stringify(value);
}

/** A list of globs as one comma-separated value where none holds a comma, else a flow list. */
export function globList(paths: readonly string[]): string {
  return paths.some((p) => p.includes(',')) ? `[${paths.map((p) => JSON.stringify(p)).join(', ')}]` : yamlScalar(paths.join(','));
}

/** The most globs one `applyTo` holds once its alternations are spread out (a list of 100 paths of a few each fits). */
const MAX_APPLY_TO_GLOBS = 1000;

/**
 * Copilot's `applyTo`: one string of globs that commas separate, which some readers split at every comma. Each
 * path's `{a,b}` alternations are written as globs of their own (the same files); a comma left (in a name, in a
 * `[…]` class) cannot be written there, so the export refuses it (exit 2, `path-not-expressible`), never a list that
 * a reader splits into other globs.
 */
export function applyTo(project: string, paths: readonly string[]): string {
  const out: string[] = [];
  for (const [index, path] of paths.entries()) {
    const globs = commaFreeGlobs(path, MAX_APPLY_TO_GLOBS - out.length);
    if (typeof globs !== 'string') {
      out.push(...globs);
      continue;
    }
    throw new UsageError(
      globs === 'comma'
        ? `project ${project}: paths.${index} ${JSON.stringify(path)} holds a comma outside {…}, which GitHub Copilot's applyTo cannot hold: a comma separates the globs there`
        : `project ${project}: the {…} alternatives of its paths make more than ${MAX_APPLY_TO_GLOBS} globs, more than GitHub Copilot's applyTo is written with`,
      `Nothing was written. ${globs === 'comma' ? 'Write the path without that comma (a "?" matches it, and any other character)' : 'Write fewer alternatives'} in projects/${project}/project.yaml, or export without the copilot target.`,
      { target: 'copilot', project, index, path },
      'path-not-expressible',
    );
  }
  return out.join(',');
}
