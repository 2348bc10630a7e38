/**
 * The files a Python or Node.js program given in a shell command writes, as far as its text tells (docs/guard.md,
 * "Shell commands"): `python3 -c "open('secrets/k', 'w')…"`, a script given on the input (`python3 - <<'EOF'`), or a
 * script file, which the hook reads. Only the plain forms are read: a call with a quoted path, or a name given a
 * quoted path in the same program (`p = 'secrets/k'` … `open(p, 'w')`). Pure.
 */
import { SHELL_NAMES } from './guard-shell-words.ts';

export type Language = 'python' | 'node';

/**
 * A script file a command runs (`python3 fix.py`, `bash fix.sh`, `./fix.sh`): what its text writes, read as its
 * language (`auto`: by its `#!` line, else its name's extension).
 */
export interface ScriptInput {
  kind: 'script';
  file: string;
  language: Language | 'shell' | 'auto' | 'make';
  /** A makefile's targets to run (none: its first), and the folder its recipes run in (`make -C DIR`). */
  targets?: string[];
  dir?: string;
}

/** The language a script file is in: by its `#!` line (`#!/usr/bin/env bash`), else by its name's extension. */
export function scriptLanguage(file: string, text: string): Language | 'shell' | undefined {
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  const program = shebang === null ? undefined : (shebang[1]!.endsWith('/env') ? (shebang[2] ?? '') : shebang[1]!).replace(/^.*\//, '');
  if (program !== undefined) return SHELL_NAMES.test(program) ? 'shell' : languageOf(program);
  if (/\.(?:sh|bash)$/.test(file)) return 'shell';
  if (/\.py$/.test(file)) return 'python';
  if (/\.[cm]?js$/.test(file)) return 'node';
  return undefined;
}

/**
 * What an interpreter's command writes: its inline programs', and its input's (`given`, read only when it reads its
 * input); and the script file it runs (`file`), which the caller reads as any script file a command runs. Undefined
 * for no Python or Node.js, or a module run.
 */
export function interpreted(
  name: string,
  args: readonly string[],
  given: () => string[],
): { paths: string[]; removes: string[]; file?: string; language: Language } | undefined {
  const language = languageOf(name);
  const run = language === undefined ? undefined : programOf(language, args);
  if (language === undefined || run === undefined) return undefined;
  const out = { paths: [] as string[], removes: [] as string[], language, ...(run.file === undefined ? {} : { file: run.file }) };
  for (const text of [...run.inline, ...(run.stdin ? given() : [])]) {
    const wrote = programWrites(language, text);
    out.paths.push(...wrote.paths);
    out.removes.push(...wrote.removes);
  }
  return out;
}

/** The language of a program's name: `python3.12`, `pypy3`, `node`, `nodejs`. */
export function languageOf(name: string): Language | undefined {
  if (/^(?:python[\d.]*|pypy[\d.]*)$/.test(name)) return 'python';
  if (/^(?:node|nodejs)$/.test(name)) return 'node';
  return undefined;
}

/**
 * What an interpreter's command line runs: its inline programs (`-c`, `-e`, `-p`), the script file it is given,
 * or its input (no script, or `-`), as `stdin`. Undefined for a module run (`python -m black`: read elsewhere).
 */
export function programOf(language: Language, args: readonly string[]): { inline: string[]; file?: string; stdin: boolean } | undefined {
  const inline: string[] = [];
  const valued =
    language === 'python' ? /^-[WX]$/ : /^(?:-r|--require|--import|--loader|--experimental-loader|--input-type|--conditions|-C)$/;
  const code = language === 'python' ? /^-c$/ : /^(?:-e|--eval|-p|--print)$/;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (language === 'python' && a === '-m') return undefined;
    if (code.test(a)) {
      inline.push(args[i + 1] ?? '');
      // Python's `-c` ends its options: what follows is the program's own arguments.
      if (language === 'python') return { inline, stdin: false };
      i++;
    } else if (language === 'node' && /^--(?:eval|print)=/.test(a)) inline.push(a.slice(a.indexOf('=') + 1));
    else if (valued.test(a)) i++;
    else if (a === '-') return { inline, stdin: inline.length === 0 };
    else if (!a.startsWith('-')) return inline.length > 0 ? { inline, stdin: false } : { inline, file: a, stdin: false };
  }
  return { inline, stdin: inline.length === 0 };
}

/** A quoted text, in either quote, with its escapes; a Python prefix (`r`, `b`, `f`) before it. */
const BACKTICK = '`';
const QUOTED = String.raw`([rRbBuUfF]{0,2})(?:'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|${BACKTICK}((?:\\.|[^${BACKTICK}\\$])*)${BACKTICK})`;
/** An argument: a quoted text (its prefix, then its text in one of three groups), or a name, or either in `Path(…)`. */
const ARG = String.raw`(?:(?:pathlib\.)?Path\(\s*)?(?:${QUOTED}|([A-Za-z_]\w*))\s*\)?`;

/** The text a quoted argument holds, escapes taken off; a name's values; none for what names no known value. */
function values(m: RegExpExecArray, at: number, names: ReadonlyMap<string, string[]>): string[] {
  const quoted = m[at + 1] ?? m[at + 2] ?? m[at + 3];
  // An f-string's `{…}` is filled in when it runs: which file it names, the text does not tell.
  if (quoted !== undefined) return quoted.includes('{') && /[fF]/.test(m[at] ?? '') ? [] : [quoted.replace(/\\(.)/g, '$1')];
  const name = m[at + 4];
  return name === undefined ? [] : (names.get(name) ?? []);
}

/** Names given a quoted text (`p = 'x'`, `const p = "x"`, `p = Path('x')`), and each of a `for` loop over a list of them. */
function namesOf(text: string): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const add = (name: string, value: string) => names.get(name)?.push(value) ?? names.set(name, [value]);
  const assigned = new RegExp(String.raw`(?:^|[;\n{(,])\s*(?:const\s+|let\s+|var\s+)?([A-Za-z_]\w*)\s*=\s*${ARG}`, 'g');
  for (const m of text.matchAll(assigned)) for (const v of values(m, 2, new Map())) add(m[1]!, v);
  const loop = /\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+)?([A-Za-z_]\w*)\s+(?:in|of)\s+[[(]([^\])]*)[\])]/g;
  for (const m of text.matchAll(loop))
    for (const item of m[2]!.matchAll(new RegExp(QUOTED, 'g'))) add(m[1]!, (item[2] ?? item[3] ?? item[4]!).replace(/\\(.)/g, '$1'));
  return names;
}

/** Each call of `calls` and the values of its arguments, `count` of them. */
function* calls(text: string, calls: string, count: 1 | 2, names: ReadonlyMap<string, string[]>): Generator<string[][]> {
  const second = count === 2 ? String.raw`\s*,\s*${ARG}` : '';
  for (const m of text.matchAll(new RegExp(String.raw`(?:${calls})\(\s*${ARG}${second}`, 'g')))
    yield count === 2 ? [values(m, 1, names), values(m, 6, names)] : [values(m, 1, names)];
}

/** A mode that writes: `w`, `a`, `x` or `+`. */
const WRITE_MODE = /^[rbtU]*[wax+][rbtU+]*$/;

/** The files a program's text writes (`paths`), and the folders it deletes whole (`removes`). */
export function programWrites(language: Language, text: string): { paths: string[]; removes: string[] } {
  const names = namesOf(text);
  const out = { paths: [] as string[], removes: [] as string[] };
  const write = (...lists: string[][]) => {
    for (const list of lists) out.paths.push(...list);
  };
  if (language === 'python') {
    // open(p, 'w'), open(p, mode="a"), io.open, codecs.open; Path(p).open('w').
    const open = new RegExp(String.raw`\b(?:io\.|codecs\.)?open\(\s*${ARG}\s*,\s*(?:mode\s*=\s*)?['"]([^'"]*)['"]`, 'g');
    for (const m of text.matchAll(open)) if (WRITE_MODE.test(m[6]!)) write(values(m, 1, names));
    const pathOpen = new RegExp(String.raw`${ARG}\s*\.\s*open\(\s*(?:mode\s*=\s*)?['"]([^'"]*)['"]`, 'g');
    for (const m of text.matchAll(pathOpen)) if (WRITE_MODE.test(m[6]!)) write(values(m, 1, names));
    const method = new RegExp(
      String.raw`${ARG}\s*\.\s*(?:write_text|write_bytes|touch|unlink|rmdir|rename|replace|symlink_to|hardlink_to)\(`,
      'g',
    );
    for (const m of text.matchAll(method)) write(values(m, 1, names));
    for (const [p] of calls(text, String.raw`\bos\.(?:remove|unlink|rmdir|removedirs|truncate)`, 1, names)) write(p!);
    for (const [a, b] of calls(text, String.raw`\bos\.(?:rename|replace|link|symlink)|\bshutil\.move`, 2, names)) write(a!, b!);
    for (const [, b] of calls(text, String.raw`\bshutil\.(?:copy|copy2|copyfile|copytree)`, 2, names)) write(b!);
    for (const [p] of calls(text, String.raw`\bshutil\.rmtree`, 1, names)) {
      write(p!);
      out.removes.push(...p!);
    }
  } else {
    const one = String.raw`\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|truncateSync|truncate|unlinkSync|unlink|rmdirSync|rmdir|rmSync|mkdtempSync)|\.rm`;
    for (const [p] of calls(text, one, 1, names)) write(p!);
    for (const [p] of calls(text, String.raw`\b(?:rmSync)|\.rm`, 1, names)) out.removes.push(...p!);
    for (const [a, b] of calls(text, String.raw`\b(?:renameSync|rename|symlinkSync|symlink|linkSync|link)`, 2, names)) write(a!, b!);
    for (const [, b] of calls(text, String.raw`\b(?:copyFileSync|copyFile|cpSync)|\.cp`, 2, names)) write(b!);
  }
  return { paths: [...new Set(out.paths)], removes: [...new Set(out.removes)] };
}

/**
 * The files an `awk` program writes: those its `print` or `printf` sends to a quoted name (`print > "out.txt"`,
 * `>>`), and with gawk's `-i inplace` each file it is given. A program from a file (`-f`) is not read.
 */
export function awkWrites(args: readonly string[]): string[] {
  let program: string | undefined;
  let fromFile = false;
  let inPlace = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-F' || a === '-v') i++;
    else if (a === '-f' || a === '--file') {
      fromFile = true;
      i++;
    } else if (a === '-i' || a === '--include') inPlace ||= args[++i] === 'inplace';
    else if (a === '-e' || a === '--source') program = args[++i];
    else if (a === '--') {
      for (const rest of args.slice(i + 1)) program === undefined && !fromFile ? (program = rest) : files.push(rest);
      break;
    } else if (a.startsWith('-') && a !== '-') continue;
    else if (program === undefined && !fromFile) program = a;
    else files.push(a);
  }
  const out: string[] = [];
  // Statement by statement, from its first `print`: a long statement is looked at once, however many it holds.
  for (const statement of (program ?? '').split(/[;}\n]/)) {
    const at = statement.search(/\bprintf?\b/);
    const target = at < 0 ? null : />>?\s*"((?:\\.|[^"\\])+)"/.exec(statement.slice(at));
    if (target) out.push(target[1]!.replace(/\\(.)/g, '$1'));
  }
  // Operands of the form NAME=VALUE set a variable, and are no file.
  if (inPlace) out.push(...files.filter((f) => !/^[A-Za-z_]\w*=/.test(f) && f !== '-'));
  return out;
}
