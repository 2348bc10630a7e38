/**
 * The commands `xargs` runs with the words its input gives it, as far as the shell command's text tells them
 * (docs/guard.md, "Shell commands"): `echo a b | xargs rm` runs `rm a b`. Pure.
 */
import { basename, type Simple } from './guard-shell-lex.ts';

/**
 * The commands an `xargs` among `all`'s runners runs: `command` (the words after the runners) with the words of
 * `input` (what `echo` or `printf` pipes to it, a here-document) after it, or, with `-I REPL`, once for each word, put
 * for REPL in each of its words. None when no `xargs` runs it or the text gives it no input.
 */
export function xargsRuns(all: readonly string[], command: readonly string[], input: readonly string[]): Simple[] {
  const runners = all.slice(0, all.length - command.length);
  const at = runners.findIndex((w) => basename(w) === 'xargs');
  if (at < 0 || command.length === 0) return [];
  const items = input.flatMap((text) => text.split(/\s+/).filter((item) => item !== ''));
  if (items.length === 0) return [];
  const options = runners.slice(at + 1);
  let replace: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const o = options[i]!;
    if (o === '-I') replace = options[i + 1];
    else if (o.startsWith('-I')) replace = o.slice(2);
    else if (o === '-i' || o === '--replace') replace = '{}';
    else if (o.startsWith('--replace=')) replace = o.slice(10);
  }
  const run = (words: string[]): Simple => ({ words, redirected: [], heredocs: [] });
  if (replace === undefined || replace === '') return [run([...command, ...items])];
  return items.map((item) => run(command.map((w) => w.replaceAll(replace, item))));
}
