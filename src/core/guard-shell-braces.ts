/**
 * Brace expansion of a shell word as bash does it (`se{c,}rets/k`), for the files a shell command writes
 * (guard-shell-lex.ts). Pure, and bounded by a budget the caller keeps.
 */
import { UsageError } from './errors.ts';

/**
 * The words `word` stands for, its braces expanded as bash expands them (`se{c,}rets/k` is `secrets/k` and `serets/k`,
 * `{cp,a,secrets/k}` three words, `a{b,{c,d}}e` three): a `{…}` holding a `,` at its own level, not `${…}`, nor a `{}`
 * or `{a..c}`, which stay as written. Each word made is read in turn from a list, their characters counted against
 * `budget` (`{a,b}{a,b}…` doubles at each pair), so a word of braces costs no more than a few times the script.
 */
export function braceWords(word: string, budget: { left: number }): string[] {
  const out: string[] = [];
  const todo = [word];
  while (todo.length > 0) {
    const w = todo.pop()!;
    budget.left -= w.length;
    if (budget.left < 0)
      throw new UsageError(
        "the command's braces make more words than the hook judges in its time",
        'Write the files out, or run it as shorter commands.',
      );
    const group = firstBraceGroup(w);
    if (group === undefined) {
      out.push(w);
      continue;
    }
    const [open, commas, close] = group;
    const ends = [...commas, close];
    // Pushed last first, so the words come out in the order bash gives them.
    for (let k = ends.length - 1; k >= 0; k--)
      todo.push(w.slice(0, open) + w.slice((k === 0 ? open : ends[k - 1]!) + 1, ends[k]) + w.slice(close + 1));
  }
  return out;
}

/** The first `{…}` of `w` that braces expand: its `{`, the `,`s at its own level and its `}`; pairs matched in one pass. */
function firstBraceGroup(w: string): [number, number[], number] | undefined {
  const closing = new Map<number, number>();
  const opened: number[] = [];
  for (let i = 0; i < w.length; i++)
    if (w[i] === '{') opened.push(i);
    else if (w[i] === '}' && opened.length > 0) closing.set(opened.pop()!, i);
  for (let i = 0; i < w.length; i++) {
    const close = closing.get(i);
    if (close === undefined || w[i - 1] === '$') continue;
    // The commas at this pair's own level: a pair within is stepped over whole, so each character is looked at once.
    const commas: number[] = [];
    for (let j = i + 1; j < close; j++) {
      const inner = closing.get(j);
      if (inner !== undefined) j = inner;
      else if (w[j] === ',') commas.push(j);
    }
    if (commas.length > 0) return [i, commas, close];
  }
  return undefined;
}
