/**
 * What `make` runs, as far as its makefile's text tells (docs/guard.md, "Shell commands"): the recipes of the targets
 * it is asked for (the first target when none), and of the targets they depend on, each line a shell command. The hook
 * reads the makefile at its edge; variables (`$(OUT)`, `$@`) are left as written. Pure.
 */
import { inFolder } from './guard-shell-lex.ts';

/** A makefile `make ARGS` reads (`-f FILE`, else the first of GNU make's names found, in `-C DIR`) and its targets. */
export interface MakeRun {
  /** The makefiles to try, in order, named from where the command runs. */
  files: string[];
  targets: string[];
  /** The folder the recipes run in (`-C DIR`), '' for where the command runs. */
  dir: string;
}

/** The makefile and targets of `make ARGS`; undefined for a run that only prints (`-n`, `-p`, `-q`, `--dry-run`). */
export function makeRun(args: readonly string[]): MakeRun | undefined {
  let dir = '';
  let file: string | undefined;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^-[a-zA-Z]*[npq]|^--(?:dry-run|just-print|recon|print-data-base|question)$/.test(a)) return undefined;
    if (a === '-C' || a === '--directory') dir = args[++i] ?? '';
    else if (a.startsWith('--directory=')) dir = a.slice(12);
    else if (a === '-f' || a === '--file' || a === '--makefile') file = args[++i];
    else if (/^--(?:file|makefile)=/.test(a)) file = a.slice(a.indexOf('=') + 1);
    else if (a === '-o' || a === '-W' || a === '-I') i++;
    // `-j` and `-l` take a number, when one follows.
    else if ((a === '-j' || a === '-l') && /^\d/.test(args[i + 1] ?? '')) i++;
    else if (a.startsWith('-')) continue;
    // `VAR=value` sets a variable.
    else if (!a.includes('=')) targets.push(a);
  }
  const inDir = (name: string) => inFolder(dir === '' ? undefined : dir, name);
  const files = file !== undefined ? [inDir(file)] : ['GNUmakefile', 'makefile', 'Makefile'].map(inDir);
  return { files, targets, dir };
}

/** The most targets followed through their prerequisites: past it, a makefile the hook does not read whole. */
const MAX_TARGETS = 1000;

/**
 * The recipe lines of `targets` (the makefile's first target when none) and of what they depend on, in the makefile
 * `text`: each a shell command, its `@`, `-` and `+` taken off and `$$` made `$`.
 */
export function makeRecipes(text: string, targets: readonly string[]): string[] {
  const rules = new Map<string, { prerequisites: string[]; recipe: string[] }>();
  let first: string | undefined;
  let current: Array<{ prerequisites: string[]; recipe: string[] }> = [];
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const line of lines) {
    if (line.startsWith('\t')) {
      for (const rule of current) rule.recipe.push(line.slice(1));
      continue;
    }
    // Greedy, so that a long line without a rule in it is looked at once.
    const rule = /^([^\s:#=][^:=#]*)::?(?!=)([^;#]*)(?:;(.*))?$/.exec(line);
    if (!rule) {
      if (line.trim() !== '' && !line.trimStart().startsWith('#')) current = [];
      continue;
    }
    current = [];
    const prerequisites = rule[2]!.split(/\s+/).filter((p) => p !== '' && p !== '|');
    for (const target of rule[1]!.trim().split(/\s+/)) {
      if (target === '') continue;
      if (first === undefined && !target.startsWith('.') && !target.includes('%')) first = target;
      const known = rules.get(target) ?? { prerequisites: [], recipe: [] };
      known.prerequisites.push(...prerequisites);
      if (rule[3] !== undefined && rule[3].trim() !== '') known.recipe.push(rule[3]);
      rules.set(target, known);
      current.push(known);
    }
  }
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = targets.length > 0 ? [...targets] : first === undefined ? [] : [first];
  while (queue.length > 0 && seen.size < MAX_TARGETS) {
    const target = queue.shift()!;
    if (seen.has(target)) continue;
    seen.add(target);
    const rule = rules.get(target);
    if (rule === undefined) continue;
    queue.push(...rule.prerequisites);
    for (const line of rule.recipe)
      out.push(
        line
          .trim()
          .replace(/^[@+-]+/, '')
          .replaceAll('$$', '$'),
      );
  }
  return out;
}
