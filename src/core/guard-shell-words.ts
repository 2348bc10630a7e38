/**
 * The words of a shell command as programs read them: its operands and options' values, the command a runner
 * (`sudo`, `env`, `xargs`) runs, and the texts it is given on its input (docs/guard.md, "Shell commands"). Pure.
 */
import { basename, KEYWORDS, type Simple } from './guard-shell-lex.ts';

/** Programs that run the command after their own options (`sudo cp …`, `env X=1 cp …`), with the options that take a value. */
const RUNNERS: Record<string, RegExp | undefined> = {
  sudo: /^-[ugCDhprRTU]$/,
  doas: /^-[uC]$/,
  env: /^-[uCS]$/,
  nice: /^-n$/,
  nohup: undefined,
  time: /^-[fo]$/,
  command: undefined,
  builtin: undefined,
  exec: /^-a$/,
  timeout: /^-[sk]$/,
  stdbuf: /^-[ioe]$/,
  xargs: /^-[IdEsnPLa]$/,
  ionice: /^-[cnpP]$/,
  chronic: undefined,
};

/** The programs that take a time or a count before the command they run. */
const FIRST_ARGUMENT = /^timeout$/;

/** The shells, by their programs' names: a script's `#!` line or a command naming one runs a shell script. */
export const SHELL_NAMES = /^(?:sh|bash|zsh|dash|ksh|mksh|ash)$/;

/** Whether `w` is an option word (`-f`, `--force`), not a file; `-` alone is standard input. */
export const isOption = (w: string) => w.length > 1 && w.startsWith('-');

/** The words of a command after its runners (`sudo`, `env X=1`, `xargs -n 1`) and assignments, and the scripts they run. */
export function program(words: readonly string[], more: string[]): string[] {
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
    const name = basename(words[i] ?? '');
    if (!Object.hasOwn(RUNNERS, name) && !KEYWORDS.test(name)) break;
    const valued = Object.hasOwn(RUNNERS, name) ? RUNNERS[name] : undefined;
    i++;
    while (i < words.length && isOption(words[i]!)) {
      if (words[i] === '--') {
        i++;
        break;
      }
      // `env -S 'cp a b'` splits its value into the command it runs.
      if (name === 'env' && words[i] === '-S' && words[i + 1] !== undefined) more.push(words[i + 1]!);
      i += valued?.test(words[i]!) ? 2 : 1;
    }
    if (name === 'env') while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
    if (FIRST_ARGUMENT.test(name)) i++;
  }
  return words.slice(i);
}

/**
 * The script a command given to a shell on its input writes there, as far as its text tells (`echo 'rm k' | sh`,
 * `printf … | bash`, `cat <<EOF | sh`): its here-documents and here-strings, and the words `echo` or `printf` prints.
 */
export function piped(input: Simple | undefined): string[] {
  if (input === undefined) return [];
  const words = program(input.words, []);
  const printed = /^(?:echo|printf)$/.test(basename(words[0] ?? '')) ? [words.slice(1).join(' ')] : [];
  return [...input.heredocs, ...printed];
}

/** The arguments that are not options (after `--`, every one), leaving out the values of the options `valued` takes. */
export function operands(args: readonly string[], valued?: RegExp): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return [...out, ...args.slice(i + 1)];
    if (!isOption(a)) out.push(a);
    else if (valued?.test(a)) i++;
  }
  return out;
}

/** The values of each option `separate` (its value the next word) or `joined` (its value in the word) names, before `--`. */
export function optionValues(args: readonly string[], separate: RegExp, joined: RegExp): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const inWord = joined.exec(args[i]!);
    if (separate.test(args[i]!)) values.push(args[++i] ?? '');
    else if (inWord) values.push(inWord[1] ?? inWord[2] ?? '');
  }
  return values;
}

/** The value the last such option gives, as a program that takes one reads it. */
export const optionValue = (args: readonly string[], separate: RegExp, joined: RegExp): string | undefined =>
  optionValues(args, separate, joined).at(-1);

/** A file's name as the texts a script writes are kept by: `./fix.sh` and `fix.sh` are one file. */
export const writtenKey = (file: string): string => file.replace(/^(?:\.\/+)+/, '');

/** The texts a command is given on its input: its here-documents and here-strings, and what `echo` or `printf` pipes to it. */
export const given = (cmd: Simple): string[] => [...cmd.heredocs, ...piped(cmd.input)];
