/**
 * The pieces of a shell script's text the reading of it scans (docs/guard.md, "Shell commands"): where a command
 * substitution, arithmetic, a here-document's body or a `$'…'` string ends, a word as the shell reads it, and the
 * names of paths. Pure, each linear in the text it looks at.
 */

/** The shell's own words before a command (`if rm …`, `do rm …; done`, `! rm …`). */
export const KEYWORDS = /^(?:if|then|else|elif|do|while|until|!)$/;

/**
 * The text of a `"…"` string from `at`, and where it ends. A command substitution in it runs too: each one's text,
 * `$(…)` to its `)` ({@link substitutionEnd}) or between backticks, is put in `more`, a script of its own, and so are
 * those of arithmetic in it ({@link arithmeticEnd}). Only the outermost substitution is put in `more`; the ones within
 * are read with it.
 */
export function doubleQuoted(script: string, at: number, more: string[], limit = script.length): [string, number] {
  let text = '';
  let tick = -1;
  let j = at;
  for (; j < limit; j++) {
    const ch = script[j]!;
    // Backticks run to their own closing one, a `"` within them opening a string of their script (`"`echo "a" > k`"`).
    if (ch === '"' && tick < 0) break;
    if (ch === '\\' && j + 1 < limit && '\\"$`\n'.includes(script[j + 1]!)) {
      j++;
      if (script[j] === '\n') continue;
    } else if (ch === '$' && script[j + 1] === '(' && tick < 0) {
      // Arithmetic, `"$(( a > b ))"`, is text, which runs nothing but its substitutions; a substitution, a script.
      const arithmetic = script[j + 2] === '(' ? arithmeticEnd(script, j + 3, limit) : undefined;
      if (arithmetic !== undefined && arithmetic.end >= 0) {
        more.push(...arithmetic.scripts);
        text += script.slice(j, arithmetic.end);
        j = arithmetic.end - 1;
        continue;
      }
      const end = substitutionEnd(script, j + 2, limit);
      more.push(script.slice(j + 2, end));
      text += script.slice(j, end + 1);
      j = end;
      continue;
    } else if (ch === '`') {
      if (tick < 0) tick = j + 1;
      else {
        more.push(unescapeTicks(script.slice(tick, j)));
        tick = -1;
      }
    }
    text += script[j] ?? '';
  }
  if (tick >= 0) more.push(unescapeTicks(script.slice(tick, j)));
  return [text, j + 1];
}

/** Characters that end a word in a script, or open a quote or an expansion within one. */
const WORD_END = /[\s;&|()<>"'`\\$#]/;

/**
 * Where the command substitution whose text starts at `at` (past its `$(`) ends: the index of its `)`, or `limit` where
 * none closes it before. The shell reads its text afresh as a script (`"$(grep "a > b" f)"`), so quotes,
 * escapes, `${…}`, backticks, parentheses and substitutions within are followed here, and a comment and a `case`'s
 * patterns too, whose `)` closes nothing (`"$(case x in a) …;; esac; rm k)"`). Read on a stack, not by recursion, so
 * each character is looked at once however deep they nest. `ends`, when given, gets where each substitution within
 * ends too, by where its `$` is: a reader that meets them later looks them up rather than reading them again.
 */
export function substitutionEnd(script: string, at: number, limit = script.length, ends?: Map<number, number>): number {
  // '(' a parenthesis, 'S' a substitution within, 'c' a case up to its `esac`, '{' a `${…}`, '"' a string, '`' backticks.
  const stack = ['('];
  // Where each open 'S' of the stack starts (its `$`), innermost last.
  const opened: number[] = [];
  // Not closed before `limit`: nor is any within it, which a later reader then need not look for again.
  const unclosed = () => {
    for (const s of opened) ends?.set(s, limit);
    return limit;
  };
  // Whether a command's first word comes next, where `case` and `esac` are the shell's own words.
  let start = true;
  // Here-documents opened on this line, whose bodies follow it and close nothing (`"$(cat <<X\n)\nX\n…)"`).
  const docs: { delimiter: string; tabs: boolean }[] = [];
  // How many arithmetic expressions the text is in, where `<<` is a shift and opens no here-document.
  let inArithmetic = 0;
  for (let j = at; j < limit; j++) {
    const ch = script[j]!;
    const top = stack.at(-1)!;
    if (ch === '\\') {
      j++;
      start = false;
    } else if (top === '`') {
      if (ch === '`') stack.pop();
    } else if (ch === '$' && (script[j + 1] === '(' || script[j + 1] === '{')) {
      if (script[j + 1] === '(') opened.push(j);
      stack.push(script[++j] === '(' ? 'S' : '{');
      start = true;
    } else if (ch === '`') stack.push('`');
    else if (top === '"') {
      if (ch === '"') stack.pop();
    } else if (ch === '"') {
      stack.push('"');
      start = false;
    } else if (ch === "'" || (ch === '$' && script[j + 1] === "'")) {
      // A quoted text, `$'…'` with its escapes: nothing in it closes anything.
      let k = ch === '$' ? j + 2 : j + 1;
      while (k < limit && script[k] !== "'") k += ch === '$' && script[k] === '\\' ? 2 : 1;
      if (k >= limit) return unclosed();
      j = k;
      start = false;
    } else if (top === '{') {
      if (ch === '}') stack.pop();
    } else if (ch === '(') {
      // The second `(` of `((` or `$((` opens arithmetic, whose `<<` is a shift.
      const arithmetic = script[j - 1] === '(';
      if (arithmetic) inArithmetic++;
      stack.push(arithmetic ? 'a' : '(');
      start = true;
    } else if (ch === ')') {
      // A case's pattern ends at its `)`, and its commands follow.
      start = top === 'c';
      const closed = start ? undefined : stack.pop();
      if (closed === 'a') inArithmetic--;
      if (closed === 'S') ends?.set(opened.pop()!, j);
      if (!start && stack.length === 0) return j;
    } else if (ch === '<' && script[j + 1] === '<' && script[j + 2] !== '<' && inArithmetic === 0) {
      const tabs = script[j + 2] === '-';
      let k = j + (tabs ? 3 : 2);
      while (k < limit && (script[k] === ' ' || script[k] === '\t')) k++;
      docs.push({ delimiter: wordAt(script, k, limit), tabs });
      j = k - 1;
    } else if (ch === '\n' && docs.length > 0) {
      let next = j + 1;
      for (const doc of docs.splice(0)) next = heredocBody(script, next, doc, limit)[1];
      j = next - 1;
      start = true;
    } else if (ch === ';' || ch === '&' || ch === '|' || ch === '\n') start = true;
    else if (ch === '#' && /[\s;&|()]/.test(script[j - 1]!)) {
      const eol = script.indexOf('\n', j);
      if (eol < 0 || eol >= limit) return unclosed();
      j = eol - 1;
    } else if (!/\s/.test(ch)) {
      let k = j;
      while (k < limit && (k === j || !WORD_END.test(script[k]!))) k++;
      const w = script.slice(j, k);
      if (start && w === 'case') stack.push('c');
      else if (start && w === 'esac' && top === 'c') stack.pop();
      start = start && (KEYWORDS.test(w) || w === '{');
      j = k - 1;
    }
  }
  return unclosed();
}

/**
 * Where the arithmetic from `at` (after its `$((` or `((`) ends, past its `))`, and the scripts of the substitutions
 * in it (`$(( $(f) > 2 ))`: `f`), which run, where its `>` and `<` compare: `end` -1 where it is no plain arithmetic
 * (a quote or a line break within, read as a script's; a substitution not closed; or a `)` not followed by the
 * closing one, `((cmd) )`, a subshell to bash), and `read`, how far it was looked at. The one rule for `((`, `$((` and
 * `"$((`.
 */
export function arithmeticEnd(script: string, at: number, limit = script.length): { end: number; read: number; scripts: string[] } {
  let depth = 2;
  const scripts: string[] = [];
  for (let j = at; j < limit; j++) {
    const ch = script[j]!;
    if (ch === '$' && script[j + 1] === '(' && script[j + 2] !== '(') {
      const close = substitutionEnd(script, j + 2, limit);
      if (close >= limit) return { end: -1, read: limit, scripts: [] };
      scripts.push(script.slice(j + 2, close));
      j = close;
    } else if (ch === '`') {
      let close = j + 1;
      while (close < limit && script[close] !== '`') close += script[close] === '\\' ? 2 : 1;
      if (close >= limit) return { end: -1, read: limit, scripts: [] };
      scripts.push(unescapeTicks(script.slice(j + 1, close)));
      j = close;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 1)
      return script[j + 1] === ')' ? { end: j + 2, read: j, scripts } : { end: -1, read: j, scripts: [] };
    else if ('\'"\\\n'.includes(ch)) return { end: -1, read: j, scripts: [] };
  }
  return { end: -1, read: limit, scripts: [] };
}

/**
 * The word that starts at `at` of `script`, read as {@link lex} reads one (`"sec"rets`, `sec''rets`, `sec\rets` and
 * `$'sec\x72ets'` are `secrets`; a variable is not expanded), and no further than `limit`: the folder a `cd` names
 * where a pattern found it (guard-scripts.ts). A quote not closed before `limit` ends it.
 */
export function wordAt(script: string, at: number, limit: number): string {
  const end = Math.min(script.length, limit);
  let out = '';
  let i = at;
  while (i < end) {
    const c = script[i]!;
    if (c === "'") {
      const close = script.indexOf("'", i + 1);
      if (close < 0 || close >= end) break;
      out += script.slice(i + 1, close);
      i = close + 1;
    } else if (c === '$' && script[i + 1] === "'") {
      const [text, next] = ansiQuoted(script, i + 2, end);
      if (next > end) break;
      out += text;
      i = next;
    } else if (c === '"') {
      const [text, next] = doubleQuoted(script, i + 1, [], end);
      out += text;
      if (next > end) break;
      i = next;
    } else if (c === '\\') {
      if (i + 1 < end && script[i + 1] !== '\n') out += script[i + 1];
      i += 2;
    } else if (/[\s&;|()<>`]/.test(c)) break;
    else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The body of a here-document from `at`, the line after the one that opened it: its lines up to the one that is its
 * delimiter (leading tabs taken off for `<<-`), and where the script goes on past that line. The one rule for
 * {@link lex} and {@link substitutionEnd}.
 */
export function heredocBody(script: string, at: number, doc: { delimiter: string; tabs: boolean }, limit: number): [string, number] {
  const body: string[] = [];
  let i = at;
  while (i < limit) {
    const eol = script.indexOf('\n', i);
    const end = eol < 0 || eol > limit ? limit : eol;
    const line = script.slice(i, end);
    i = end + 1;
    if ((doc.tabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
    body.push(line);
  }
  return [body.join('\n'), Math.min(i, limit)];
}

/** A backtick substitution's script: `\``, `\\` and `\$` are the characters themselves there (a `\`` a substitution within). */
export function unescapeTicks(text: string): string {
  return text.replace(/\\([`\\$])/g, '$1');
}

/** The text of a `$'…'` string from `at`, its escapes read as bash reads them, and where it ends. */
export function ansiQuoted(script: string, at: number, limit = script.length): [string, number] {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };
  let out = '';
  let i = at;
  while (i < limit && script[i] !== "'") {
    if (script[i] !== '\\' || i + 1 >= limit) {
      out += script[i++];
      continue;
    }
    const e = script[i + 1]!;
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(script.slice(i + 1, i + 4));
    const octal = /^[0-7]{1,3}/.exec(script.slice(i + 1, i + 4));
    if (hex) {
      out += String.fromCharCode(Number.parseInt(hex[1]!, 16));
      i += 1 + hex[0].length;
    } else if (octal) {
      out += String.fromCharCode(Number.parseInt(octal[0], 8));
      i += 1 + octal[0].length;
    } else {
      out += simple[e] ?? e;
      i += 2;
    }
  }
  return [out, i + 1];
}

/** The last name of a path, as a program is named (`/bin/cp` → `cp`, `@biomejs/biome` → `biome`). */
export function basename(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  return parts.at(-1) ?? path;
}

/** `name` in the folder `dir` (none, or an absolute `name`: as named), as `-C DIR`, `-d DIR` or `-P DIR` place a file. */
export function inFolder(dir: string | undefined, name: string): string {
  return dir === undefined || dir === '' || name.startsWith('/') ? name : `${dir.replace(/\/+$/, '')}/${name}`;
}
