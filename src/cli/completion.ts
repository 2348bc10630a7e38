/**
 * Shell completion of the store's own names (docs/commands.md, "Shell
 * completion"): the script `agents completion` prints asks `agents` for the
 * candidates of the word being typed; yargs answers with commands and
 * options, and this module with the projects, action templates, plans and
 * invariant ids a word names.
 */
import type { StoreWordKind } from '../service/invariants/projects.ts';
import { CliContext } from './context.ts';
import type { CliIo } from './io.ts';
import { COMMANDS } from './registry.ts';

/** Options whose value names something in the store. */
const OPTION_WORDS: Readonly<Record<string, StoreWordKind>> = { '--project': 'project', '--plan': 'plan', '--action': 'action' };

/** Options that take a value, so that the value is not read as a command word. */
const VALUE_OPTIONS = new Set(['--store', '--format', ...Object.keys(OPTION_WORDS)]);

/**
 * What the last of `words` (those after the program's name; the last is being
 * typed) names in the store: the value of --project, --plan or --action, or
 * the first argument of a command whose table entry says (`plan show <id>`).
 */
export function wordKind(words: readonly string[]): StoreWordKind | undefined {
  const current = words.at(-1) ?? '';
  const previous = words.at(-2);
  if (previous !== undefined && Object.hasOwn(OPTION_WORDS, previous)) return OPTION_WORDS[previous];
  if (current.startsWith('-')) return undefined;
  const typed: string[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    const w = words[i]!;
    if (w.startsWith('-')) {
      if (VALUE_OPTIONS.has(w)) i++;
      continue;
    }
    typed.push(w);
  }
  for (const entry of COMMANDS) {
    if (entry.completes === undefined) continue;
    const group = entry.group ? entry.group.split(' ') : [];
    const forms = typeof entry.command === 'string' ? [entry.command] : entry.command;
    const names = forms.map((f) => f.split(' ')[0]);
    if (typed.length === group.length + 1 && group.every((g, i) => typed[i] === g) && names.includes(typed[group.length]!)) {
      return entry.completes;
    }
  }
  return undefined;
}

/**
 * The store's names the word being typed may complete to, or undefined when
 * the word names nothing in the store (then yargs completes it). Quiet: a
 * missing or unreadable store completes to nothing, never to an error.
 */
export async function storeCompletions(words: readonly string[], io: CliIo): Promise<string[] | undefined> {
  const kind = wordKind(words);
  if (kind === undefined) return undefined;
  let store: string | undefined;
  for (let i = 0; i < words.length - 1; i++) {
    if (words[i] === '--store') store = words[i + 1];
    else if (words[i]!.startsWith('--store=')) store = words[i]!.slice('--store='.length);
  }
  const current = words.at(-1) ?? '';
  try {
    // Notices (a policy source not fetched) would land in the middle of the command line being typed.
    const quiet: CliIo = {
      get stdout() {
        return io.stdout;
      },
      stderr: { write: () => true },
      get stdin() {
        return io.stdin;
      },
      env: io.env,
      cwd: io.cwd,
    };
    const ctx = new CliContext({ io: quiet, store, format: 'text', color: false, interactive: false, quiet: true });
    const [{ source }, { storeWords }] = await Promise.all([ctx.invariants(), import('../service/invariants/projects.ts')]);
    const names = await storeWords(source, kind);
    // Ids are upper case and taken in either case: typed in lower case, offered in lower case, as the shell matches them.
    const ids = kind === 'plan' || kind === 'invariant';
    const lower = ids && current !== current.toUpperCase();
    const offered = lower ? names.map((w) => w.toLowerCase()) : names;
    return offered.filter((w) => w.startsWith(current));
  } catch {
    return [];
  }
}
