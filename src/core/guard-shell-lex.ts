/**
 * A shell script read as the shell reads it, for the files it writes (docs/guard.md, "Shell commands"): its simple
 * commands, their words with quotes and escapes taken off, the files their redirections write, and the scripts they
 * run in turn. Pure and linear in the text.
 */
import { UsageError } from './errors.ts';

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
  let redirect: 'write' | 'other' | 'heredoc' | 'heredoc-tabs' | 'string' | undefined;
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
        const body: string[] = [];
        while (i < n) {
          const eol = script.indexOf('\n', i);
          const end = eol < 0 ? n : eol;
          const line = script.slice(i, end);
          i = end + 1;
          if ((doc.tabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
          body.push(line);
        }
        doc.into.heredocs.push(body.join('\n'));
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
        redirect = 'other';
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
      // A command substitution runs its command: `$((` is arithmetic, which runs none, and is read as text, its `>`
      // and `<` comparisons; one with a substitution within, or none at all (`$((cmd) )`), is read on as a script.
      if (script[i + 2] === '(') {
        const arithmetic = i >= notArithmetic ? arithmeticEnd(script, i + 3) : { end: -1, read: notArithmetic };
        notArithmetic = Math.max(notArithmetic, arithmetic.read);
        const end = arithmetic.end >= 0 ? arithmetic.end : i + 3;
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
 * `$(…)` to its `)` or between backticks, is put in `more`, a script of its own. Within a substitution the shell reads
 * quotes and parentheses afresh (`"$(grep "a > b" f)"`, `"$( (cd x) > k )"`), so they are followed here, on a stack:
 * a `"` there opens a string of its own rather than closing this one. Only the outermost substitution is put in `more`;
 * the ones within are read with it, so each character is read once here.
 */
function doubleQuoted(script: string, at: number, more: string[], limit = script.length): [string, number] {
  const n = limit;
  // Within the string: `(` a substitution or a parenthesis in one, `"` a string in a substitution.
  const stack: string[] = [];
  let text = '';
  let from = -1;
  let tick = -1;
  let j = at;
  for (; j < n; j++) {
    const ch = script[j]!;
    const sub = stack.at(-1) === '(';
    if (stack.length === 0 && ch === '"') break;
    if (ch === '\\' && j + 1 < n && (sub || '\\"$`\n'.includes(script[j + 1]!))) {
      j++;
      if (script[j] === '\n' && stack.length === 0) continue;
    } else if (sub && ch === "'") {
      const close = script.indexOf("'", j + 1);
      const end = close < 0 || close >= n ? n - 1 : close;
      text += script.slice(j, end);
      j = end;
    } else if (ch === '"') {
      if (sub) stack.push('"');
      else stack.pop();
    } else if (ch === '$' && script[j + 1] === '(' && tick < 0) {
      // Plain arithmetic, `"$(( a > b ))"`, is text, which runs nothing; a substitution, a script of its own.
      const arithmetic = stack.length === 0 && script[j + 2] === '(' ? arithmeticEnd(script, j + 3).end : -1;
      if (arithmetic >= 0) {
        text += script.slice(j, arithmetic - 1);
        j = arithmetic - 1;
      } else {
        if (stack.length === 0) from = j + 2;
        stack.push('(');
        text += ch;
        j++;
      }
    } else if (sub && ch === '(') stack.push('(');
    else if (sub && ch === ')') {
      stack.pop();
      if (stack.length === 0) more.push(script.slice(from, j));
    } else if (ch === '`' && stack.length === 0) {
      if (tick < 0) tick = j + 1;
      else {
        more.push(unescapeTicks(script.slice(tick, j)));
        tick = -1;
      }
    }
    text += script[j] ?? '';
  }
  if (stack.length > 0) more.push(script.slice(from, j));
  if (tick >= 0) more.push(unescapeTicks(script.slice(tick, j)));
  return [text, j + 1];
}

/**
 * The words `word` stands for, its braces expanded as bash expands them (`se{c,}rets/k` is `secrets/k` and `serets/k`,
 * `{cp,a,secrets/k}` three words, `a{b,{c,d}}e` three): a `{…}` holding a `,` at its own level, not `${…}`, nor a `{}`
 * or `{a..c}`, which stay as written. Each word made is read in turn from a list, their characters counted against
 * `budget` (`{a,b}{a,b}…` doubles at each pair), so a word of braces costs no more than a few times the script.
 */
function braceWords(word: string, budget: { left: number }): string[] {
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

/**
 * Where the arithmetic from `at` (after its `$((` or `((`) ends, past its `))`: `end` -1 where it is no plain
 * arithmetic (a substitution, a quote or a line break within, which are read as a script's; or a `)` not followed by
 * the closing one, `((cmd) )`, a subshell to bash), and `read`, how far it was looked at.
 */
function arithmeticEnd(script: string, at: number): { end: number; read: number } {
  let depth = 2;
  for (let j = at; j < script.length; j++) {
    const ch = script[j]!;
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 1) return { end: script[j + 1] === ')' ? j + 2 : -1, read: j };
    else if ('`\'"\\\n'.includes(ch) || (ch === '$' && script[j + 1] === '(' && script[j + 2] !== '(')) return { end: -1, read: j };
  }
  return { end: -1, read: script.length };
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
