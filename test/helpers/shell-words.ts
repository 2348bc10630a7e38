/** A pasted command line's words, as a POSIX shell splits them (quotes and backslashes; no expansions). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') word = (word ?? '') + line[++i];
    else word = (word ?? '') + c;
  }
  return word === undefined ? words : [...words, word];
}
