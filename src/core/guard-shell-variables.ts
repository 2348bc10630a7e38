/**
 * The values a shell script gives its variables, as far as its text tells, and the paths they make of a word that
 * names one (docs/guard.md, "Shell commands"): `F=secrets/key; echo x > "$F"` writes `secrets/key`, and `for f in
 * a b; do rm "$f"; done` removes `a` and `b`. Pure.
 */
import { KEYWORDS } from './guard-shell-lex.ts';

/** The variables of a script and the values it may give each: every one its text gives, wherever it gives it. */
export type Variables = Map<string, string[]>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$/s;

/**
 * The values one simple command gives variables, into `vars`: `NAME=value` words at its start (alone, or after
 * `export`, `local`, `declare`, `readonly`, `typeset` and their options), and each word of `for NAME in WORD…`. A
 * variable given before one command only (`X=1 cmd`) is taken as given to the whole script: a value more is a path
 * more judged, never one less.
 */
export function recordVariables(words: readonly string[], vars: Variables): void {
  let i = 0;
  while (i < words.length && KEYWORDS.test(words[i]!)) i++;
  const add = (name: string, values: readonly string[]) => {
    const known = vars.get(name);
    if (known === undefined) vars.set(name, [...values]);
    else known.push(...values);
  };
  if (words[i] === 'for' && NAME.test(words[i + 1] ?? '') && words[i + 2] === 'in') {
    add(words[i + 1]!, words.slice(i + 3));
    return;
  }
  if (/^(?:export|local|declare|readonly|typeset)$/.test(words[i] ?? '')) {
    i++;
    while (i < words.length && words[i]!.startsWith('-')) i++;
  }
  for (; i < words.length; i++) {
    const assigned = ASSIGNMENT.exec(words[i]!);
    if (!assigned) break;
    add(assigned[1]!, [assigned[2]!]);
  }
}

/**
 * The paths `path` stands for once each `$NAME` or `${NAME}` of a variable in `vars` is each value it may take, the
 * path as written first; `room`: how many more it may make, past which undefined (a call too large to judge).
 */
export function expandVariables(path: string, vars: Variables, room: number): string[] | undefined {
  if (vars.size === 0 || !path.includes('$')) return [path];
  const out = [path];
  let made = [''];
  let at = 0;
  let found = false;
  for (const m of path.matchAll(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    const values = vars.get(m[1] ?? m[2]!);
    if (values === undefined) continue;
    found = true;
    const before = path.slice(at, m.index);
    const next: string[] = [];
    for (const prefix of made) for (const v of new Set(values)) next.push(prefix + before + v);
    if (next.length > room) return undefined;
    made = next;
    at = m.index + m[0].length;
  }
  if (!found) return out;
  for (const prefix of made) out.push(prefix + path.slice(at));
  return out;
}
