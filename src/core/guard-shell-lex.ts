/**
 * A shell script read as the shell reads it, for the files it writes (docs/guard.md, "Shell commands"): its simple
 * commands, their words with quotes and escapes taken off, the files their redirections write, and the scripts they
 * run in turn. Pure and linear in the text.
 */
import { braceWords } from './guard-shell-braces.ts';
import { ansiQuoted, arithmeticEnd, doubleQuoted, heredocBody, KEYWORDS, substitutionEnd, unescapeTicks } from './guard-shell-text.ts';

export { basename, inFolder, KEYWORDS, wordAt } from './guard-shell-text.ts';

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
  /** The command substitutions open where the script is read, innermost last: the command each stands in, and its end. */
  const frames: Array<{
    cmd: Simple;
    word: string | undefined;
    braced: boolean;
    test: boolean;
    redirect: typeof redirect;
    start: number;
    close: number;
  }> = [];
  const ends = new Map<number, number>();
  let i = 0;
  while (i < n) {
    const c = script[i]!;
    if (frames.length > 0 && i >= frames.at(-1)!.close) {
      endCommand();
      const f = frames.pop()!;
      [cmd, braced, test, redirect] = [f.cmd, f.braced, f.test, f.redirect];
      word = (f.word ?? '') + script.slice(f.start, i + 1);
      i++;
      continue;
    }
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
    // Backticks run their script, read in turn, its escaped backticks opening those within; the command goes on.
    if (c === '`') {
      let j = i + 1;
      while (j < n && script[j] !== '`') j += script[j] === '\\' ? 2 : 1;
      more.push(unescapeTicks(script.slice(i + 1, Math.min(j, n))));
      word = (word ?? '') + script.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '{' || c === '}') {
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
      // Its commands are read here, and the command it stands in goes on at its `)` (`rm -rf $(x) secrets`), the word
      // keeping its text. Where it ends is found once for it and every substitution within.
      const close = ends.get(i) ?? substitutionEnd(script, i + 2, n, ends);
      frames.push({ cmd, word, braced, test, redirect, start: i, close });
      cmd = { words: [], redirected: [], heredocs: [] };
      [word, braced, test, redirect] = [undefined, false, false, undefined];
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
