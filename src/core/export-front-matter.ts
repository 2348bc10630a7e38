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

/** The most globs one line of comma-separated globs holds once its alternations are spread out (a list of 100 paths of a few each fits). */
const MAX_SPREAD_GLOBS = 1000;

/** The readers of one line of comma-separated globs, as the refusal names them. */
const GLOB_READERS = { copilot: "GitHub Copilot's applyTo", cursor: "Cursor's globs", windsurf: "Windsurf's globs" } as const;

/**
 * A project's paths as one line of comma-separated globs, for a reader that splits it at every comma (Copilot's
 * `applyTo`; Cursor's and Windsurf's `globs`, written bare as their documentation writes them, `globs: *.ts`: those
 * clients read the rest of the line as it stands, so quotes would be part of the glob, and a flow list no glob at
 * all, and the rule would never attach, though a YAML reader takes a leading `*` for an alias). Each path's
 * `{a,b}` alternations are written as globs of their own (the same files); a comma left (in a name, in a `[…]`
 * class) cannot be written there, so the export refuses it (exit 2, `path-not-expressible`), never a list that a
 * reader splits into other globs.
 */
export function commaSeparatedGlobs(target: keyof typeof GLOB_READERS, project: string, paths: readonly string[]): string {
  const out: string[] = [];
  for (const [index, path] of paths.entries()) {
    const globs = commaFreeGlobs(path, MAX_SPREAD_GLOBS - out.length);
    if (typeof globs !== 'string') {
      out.push(...globs);
      continue;
    }
    throw new UsageError(
      globs === 'comma'
        ? `project ${project}: paths.${index} ${JSON.stringify(path)} holds a comma outside {…}, which ${GLOB_READERS[target]} cannot hold: a comma separates the globs there`
        : `project ${project}: the {…} alternatives of its paths make more than ${MAX_SPREAD_GLOBS} globs, more than ${GLOB_READERS[target]} is written with`,
      `Nothing was written. ${globs === 'comma' ? 'Write the path without that comma (a "?" matches it, and any other character)' : 'Write fewer alternatives'} in projects/${project}/project.yaml, or export without the ${target} target.`,
      { target, project, index, path },
      'path-not-expressible',
    );
  }
  return out.join(',');
}

/**
 * A project's path as picomatch reads it as the path does: Cline matches its rules' `paths` with picomatch, which
 * by default takes a class's leading `!` for one of its characters (`[!a]` matches `a` and `!`, nothing else) and
 * reads `(`, `)` and `|` as a regular expression's (`app/(marketing)/**`, a Next.js route group, matches
 * `app/marketing/x`, never its own files), and `+` or `$` after another as a quantifier or an anchor (`c++`
 * matches `c+`). Written `[^a]`, `[(]`, `[)]`, `[|]`, `[+]` and `[$]`, they mean what they mean in the path; so
 * does a `{a}` of one alternative, which picomatch keeps as text, written as that alternative (but a `{*}`,
 * which would make `**` of a `*` before it).
 */
export function picomatchGlob(glob: string): string {
  return glob
    .split('/')
    .map((seg) => {
      let out = '';
      for (let i = 0; i < seg.length; i++) {
        const ch = seg[i]!;
        // A class runs to the next `]`, an alternation to the next `}`, as glob-segment.ts reads them; without one, text.
        const close = ch === '[' ? seg.indexOf(']', i + 1) : ch === '{' ? seg.indexOf('}', i) : -1;
        if (ch === '[' && close > 0) {
          const body = seg.slice(i + 1, close);
          out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
          i = close;
        } else if (ch === '{' && close > 0 && !/[,*]/.test(seg.slice(i, close))) {
          out += picomatchGlob(seg.slice(i + 1, close));
          i = close;
        } else out += /[()|+$]/.test(ch) ? `[${ch}]` : ch;
      }
      return out;
    })
    .join('/');
}
