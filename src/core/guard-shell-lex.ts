/**
 * A shell script read as the shell reads it, for the files it writes (docs/guard.md, "Shell commands"): its simple
 * commands, their words with quotes and escapes taken off, the files their redirections write, and the scripts they
 * run in turn. Pure and linear in the text.
 */
import { braceWords } from './guard-shell-braces.ts';

/** The shell's own words before a command (`if rm …`, `do rm …; done`, `! rm …`). */
export const KEYWORDS = /^(?:if|then|else|elif|do|while|until|!)$/;

/** One simple command: its words, their quotes taken off, and the files its redirections write. */
export interface Simple {
  words: string[];
  redirected: string[];
  /** Here-documents and here-strings (`<<< text`) given to it, each a text its program reads. */
  heredocs: string[];
  /** The command whose output it reads, in a pipeline (`echo 'rm k' | sh`). */
  input?: Simple;
  /** The files its input is read from (`< fix.diff`). */
  readFrom?: string[];
}

/**
 * The simple commands of `script`, and the scripts it runs in turn (a command substitution's, a here-document given
 * to a shell). `$(…)`, backticks, `(`, `)`, `{`, `}` and process substitutions end a command, as they run their own.
 */
export function lex(script: string, more: string[]): Simple[] {
  const out: Simple[] = [];
  // The words braces may make of the script's words, past which it is no command the hook judges in its time.
  const budget = { left: 8 * script.length + 65_536 };
  let cmd: Simple = { words: [], redirected: [], heredocs: [] };
  let word: string | undefined;
  /** Whether the word holds a `{` out of quotes, and may stand for several (`se{c,}rets/k`): {@link braceWords}. */
  let braced = false;
  /** The redirection the next word is the target of: a write, a here-document's delimiter or a here-string, or a read. */
  let redirect: 'write' | 'read' | 'heredoc' | 'heredoc-tabs' | 'string' | undefined;
  const pending: Array<{ delimiter: string; tabs: boolean; into: Simple }> = [];
  /** Within a `[[ … ]]` test, where `>`, `<`, `&&`, `||` and parentheses are its own: no redirection, no end. */
  let test = false;
  /** How far arithmetic was looked for and not found ({@link arithmeticEnd}): a `$((` before it is not looked at again. */
  let notArithmetic = 0;
  /** Whether the text is within backticks, out of quotes. */
  let inTicks = false;
  /** Whether a command starts here: no word yet but the shell's own (`if [[ … ]]`, `while (( … ))`). */
  const atStart = () => word === undefined && redirect === undefined && cmd.words.every((w) => KEYWORDS.test(w));
  const endWord = () => {
    if (word === undefined) return;
    const words = braced && redirect !== 'heredoc' && redirect !== 'heredoc-tabs' ? braceWords(word, budget) : [word];
    braced = false;
    if (redirect === 'write') cmd.redirected.push(...words);
    else if (redirect === 'string') cmd.heredocs.push(word);
    else if (redirect === 'read') (cmd.readFrom ??= []).push(...words);
    else if (redirect === 'heredoc' || redirect === 'heredoc-tabs')
      pending.push({ delimiter: word, tabs: redirect === 'heredoc-tabs', into: cmd });
    else if (redirect === undefined) {
      if (word === '[[' && cmd.words.every((w) => KEYWORDS.test(w))) test = true;
      else if (word === ']]') test = false;
      cmd.words.push(...words);
    }
    redirect = undefined;
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    test = false;
    // A redirection whose target is a substitution (`> >(tee k)`, `> $(mktemp)`) takes no word of the command within.
    redirect = undefined;
    if (cmd.words.length > 0 || cmd.redirected.length > 0) out.push(cmd);
    cmd = { words: [], redirected: [], heredocs: [] };
  };
  const n = script.length;
  let i = 0;
  while (i < n) {
    const c = script[i]!;
    if (c === '\n') {
      endCommand();
      i++;
      // The bodies of the here-documents this line opened: the lines up to each one's delimiter.
      for (const doc of pending.splice(0)) {
        const [body, next] = heredocBody(script, i, doc, n);
        doc.into.heredocs.push(body);
        i = next;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    if (c === '#' && word === undefined) {
      const eol = script.indexOf('\n', i);
      i = eol < 0 ? n : eol;
      continue;
    }
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '`' || c === '{' || c === '}') {
      // `&>` and `&>>` write stdout and stderr to a file; `{` and `}` end a command only as words of their own.
      if (c === '&' && script[i + 1] === '>') {
        endWord();
        redirect = 'write';
        i += script[i + 2] === '>' ? 3 : 2;
        continue;
      }
      if (test && (c === '&' || c === '|' || c === '(' || c === ')')) {
        endWord();
        i++;
        continue;
      }
      // `(( … ))` is arithmetic, which writes nothing: its `>` and `<` compare. `((cmd) )` is a subshell, read as one.
      if (c === '(' && script[i + 1] === '(' && atStart() && i >= notArithmetic) {
        const arithmetic = arithmeticEnd(script, i + 2);
        if (arithmetic.end >= 0) {
          endCommand();
          more.push(...arithmetic.scripts);
          i = arithmetic.end;
          continue;
        }
        notArithmetic = arithmetic.read;
      }
      // A group's `{` and `}` are words of their own; `{}` (find's name for each file), `a{b,c}` and `${x}` are text.
      if ((c === '{' || c === '}') && (word !== undefined || !/^[\s;&|)]?$/.test(script[i + 1] ?? ''))) {
        if (c === '{' && !word?.endsWith('$')) braced = true;
        word = (word ?? '') + c;
        i++;
        continue;
      }
      if (c === '`') inTicks = !inTicks;
      endCommand();
      // A pipe (`|`, `|&`; not `||`) gives the command before it to the next as its input.
      if (c === '|' && script[i + 1] !== '|' && script[i - 1] !== '|') cmd.input = out.at(-1);
      i += c === '|' && script[i + 1] === '&' ? 2 : 1;
      continue;
    }
    // In `[[ … ]]`, `>` and `<` compare two texts: no redirection.
    if ((c === '>' || c === '<') && test && script[i + 1] !== '(') {
      endWord();
      i++;
      continue;
    }
    if (c === '>' || c === '<') {
      // A word of digits just before is the file descriptor redirected (`2>`), not a word of the command.
      if (word !== undefined && /^\d+$/.test(word)) word = undefined;
      endWord();
      const two = script.slice(i, i + 3);
      if (script[i + 1] === '(') {
        // A process substitution, `>(cmd)` or `<(cmd)`: a command of its own.
        endCommand();
        i += 2;
      } else if (c === '>') {
        const dup = script[i + 1] === '&';
        i += script[i + 1] === '>' || script[i + 1] === '|' || dup ? 2 : 1;
        // `>&2`, `>&-` duplicate or close a descriptor; `>&FILE` writes FILE, as `&>` does.
        if (dup && /^[\d-]/.test(script[i] ?? '')) {
          while (i < n && /[\d-]/.test(script[i]!)) i++;
        } else redirect = 'write';
      } else if (two === '<<<') {
        redirect = 'string';
        i += 3;
      } else if (two.startsWith('<<')) {
        redirect = two === '<<-' ? 'heredoc-tabs' : 'heredoc';
        i += two === '<<-' ? 3 : 2;
      } else if (two.startsWith('<>')) {
        redirect = 'write';
        i += 2;
      } else if (two.startsWith('<&')) {
        i += 2;
        while (i < n && /[\d-]/.test(script[i]!)) i++;
      } else {
        redirect = 'read';
        i++;
      }
      continue;
    }
    // `$IFS` unquoted splits words as a blank does (`cp${IFS}a${IFS}secrets/k`), in the shell's own value of it.
    const ifs = /^\$(?:IFS\b|\{IFS\})/.exec(script.slice(i, i + 6));
    if (ifs) {
      endWord();
      i += ifs[0].length;
      continue;
    }
    if (c === '$' && script[i + 1] === '(') {
      // A command substitution runs its command: `$((` is arithmetic, which runs none but its substitutions', and is
      // read as text, its `>` and `<` comparisons; one that is none (`$((cmd) )`) is read on as a script.
      if (script[i + 2] === '(') {
        const arithmetic = i >= notArithmetic ? arithmeticEnd(script, i + 3) : { end: -1, read: notArithmetic, scripts: [] };
        notArithmetic = Math.max(notArithmetic, arithmetic.read);
        const end = arithmetic.end >= 0 ? arithmetic.end : i + 3;
        more.push(...arithmetic.scripts);
        word = (word ?? '') + script.slice(i, end);
        i = end;
        continue;
      }
      endCommand();
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = script.indexOf("'", i + 1);
      const end = close < 0 ? n : close;
      word = (word ?? '') + script.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '$' && script[i + 1] === "'") {
      const [text, next] = ansiQuoted(script, i + 2);
      word = (word ?? '') + text;
      i = next;
      continue;
    }
    if (c === '"') {
      const [text, next] = doubleQuoted(script, i + 1, more);
      word = (word ?? '') + text;
      i = next;
      continue;
    }
    if (c === '\\') {
      // Within backticks, an escaped one opens or closes a substitution within (`` `a \`rm k\`` ``), which runs too.
      if (inTicks && script[i + 1] === '`') {
        endCommand();
        i += 2;
        continue;
      }
      if (i + 1 < n && script[i + 1] !== '\n') word = (word ?? '') + script[i + 1];
      i += 2;
      continue;
    }
    word = (word ?? '') + c;
    i++;
  }
  endCommand();
  return out;
}

/**
 * The text of a `"…"` string from `at`, and where it ends. A command substitution in it runs too: each one's text,
 * `$(…)` to its `)` ({@link substitutionEnd}) or between backticks, is put in `more`, a script of its own, and so are
 * those of arithmetic in it ({@link arithmeticEnd}). Only the outermost substitution is put in `more`; the ones within
 * are read with it.
 */
function doubleQuoted(script: string, at: number, more: string[], limit = script.length): [string, number] {
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
 * each character is looked at once however deep they nest.
 */
function substitutionEnd(script: string, at: number, limit = script.length): number {
  // '(' a substitution or a parenthesis, 'c' a case up to its `esac`, '{' a `${…}`, '"' a string, '`' backticks.
  const stack = ['('];
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
      stack.push(script[++j] === '(' ? '(' : '{');
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
      if (k >= limit) return limit;
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
      if (!start && stack.length > 0 && stack.pop() === 'a') inArithmetic--;
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
      if (eol < 0 || eol >= limit) return limit;
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
  return limit;
}

/**
 * Where the arithmetic from `at` (after its `$((` or `((`) ends, past its `))`, and the scripts of the substitutions
 * in it (`$(( $(f) > 2 ))`: `f`), which run, where its `>` and `<` compare: `end` -1 where it is no plain arithmetic
 * (a quote or a line break within, read as a script's; a substitution not closed; or a `)` not followed by the
 * closing one, `((cmd) )`, a subshell to bash), and `read`, how far it was looked at. The one rule for `((`, `$((` and
 * `"$((`.
 */
function arithmeticEnd(script: string, at: number, limit = script.length): { end: number; read: number; scripts: string[] } {
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
function heredocBody(script: string, at: number, doc: { delimiter: string; tabs: boolean }, limit: number): [string, number] {
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
function unescapeTicks(text: string): string {
  return text.replace(/\\([`\\$])/g, '$1');
}

/** The text of a `$'…'` string from `at`, its escapes read as bash reads them, and where it ends. */
function ansiQuoted(script: string, at: number, limit = script.length): [string, number] {
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
