/**
 * The files a shell command writes, as far as its text tells (docs/guard.md, "Shell commands"): the targets of its
 * redirections (`>`, `>>`, `&>`, `<>`), and the files of the programs that write the files their arguments name (`tee`,
 * `cp`, `mv`, `install`, `ln`, `rm`, `git mv`, `git rm`, `git checkout -- FILE`, `git restore`, `patch FILE`, `touch`, `truncate`, `sed -i`, `perl -i`, `dd of=`, `sort -o`), in a script a shell, `eval`,
 * `find -exec` or a command substitution runs too; and the patch files and archives it reads to learn the rest
 * (`git apply FILE`, `tar -x`, `unzip`: {@link ShellInput}), which the hook reads in turn. Pure and linear in the text:
 * words are read as the shell reads them, their quotes and escapes taken off; a variable is not expanded, and is
 * judged as written.
 */
import { UsageError } from './errors.ts';
import { copied } from './guard-shell-copies.ts';
import { makeRun } from './guard-shell-make.ts';
import { diffFiles, stripLevel } from './guard-shell-diff.ts';
import { gitWrites, patchFiles } from './guard-shell-git.ts';
import { downloads } from './guard-shell-downloads.ts';
import { formatted } from './guard-shell-formatters.ts';
import { compressed, type ShellInput, sevenZipInput, tarInput, unzipInput } from './guard-shell-inputs.ts';
import { basename, inFolder, lex, type Simple } from './guard-shell-lex.ts';
import { packageInput } from './guard-shell-packages.ts';
import { awkWrites, interpreted, programWrites, type ScriptInput, scriptLanguage } from './guard-shell-programs.ts';
import { expandVariables, recordVariables, type Variables } from './guard-shell-variables.ts';
import { given, operands, optionValue, optionValues, program, SHELL_NAMES, writtenKey } from './guard-shell-words.ts';
import { xargsRuns } from './guard-shell-xargs.ts';

/** A move or copy of a file or folder, `from` to `to`, as named. */
export interface Move {
  from: string;
  to: string;
  copy?: true;
}

/** What a script writes: files, folders it deletes (each file below them), and folders it moves or copies. */
export interface ShellWrites {
  paths: string[];
  removes: string[];
  moves: Move[];
  /**
   * The links the command makes (`ln -s secrets lnk`), each `name` leading to `target` (named from where the command
   * runs): a file it then writes through the link (`lnk/key`) is the target's, which no link on disk tells yet.
   */
  links: Array<{ name: string; target: string }>;
  /**
   * The symbolic links the command makes, written as links: not through their own targets (`ln -s secrets/key l` writes
   * `l` alone), since a later call that writes through one is followed on disk. A hard link is in `paths`: it is the
   * file itself, which no later call's path tells.
   */
  made: string[];
  /** The patch files and archives the command reads to learn what it writes, which the hook reads in turn. */
  inputs: ShellInput[];
}

/** {@link ShellWrites} while a command is read: with the texts its here-documents put in files (`cat > p.diff <<EOF`). */
interface Reading extends ShellWrites {
  written: Map<string, string>;
  vars: Variables;
}

/** How many paths one command may name: past it, the hook cannot judge each in its time. */
const MAX_SHELL_PATHS = 100_000;

/** The shells whose `-c` script, or here-document, is a script run too (and `su`'s `-c` command). */
const runsShell = (name: string) => SHELL_NAMES.test(name) || name === 'busybox' || name === 'su';

/**
 * What one simple command writes, into `w`; the scripts it runs are put in `more`, and the commands it runs by their
 * words (`find -exec`, `busybox`) in `runs`, read in turn rather than within this call, however deep they nest.
 */
function commandWrites(cmd: Simple, w: Reading, more: string[], runs: Simple[]): void {
  recordVariables(cmd.words, w.vars);
  w.paths.push(...cmd.redirected);
  const words = program(cmd.words, more);
  const name = basename(words[0] ?? '');
  const args = words.slice(1);
  // `echo a b | xargs rm` runs `rm a b`.
  runs.push(...xargsRuns(cmd.words, words, given(cmd)));
  if (runsShell(name)) {
    // `bash -c 'script'` (`-lc`, `-ec`), and a here-document given to a shell, run a script of their own.
    const c = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
    if (c >= 0 && args[c + 1] !== undefined) more.push(args[c + 1]!);
    if (name === 'busybox') runs.push({ words: args, redirected: [], heredocs: cmd.heredocs, input: cmd.input });
    else if (c < 0 && operands(args).length === 0) more.push(...given(cmd));
    // `bash fix.sh`: the script file it runs, read from the text the command wrote it with, else by the hook.
    else if (c < 0 && name !== 'su') scriptFile(operands(args, /^-[oO]$|^--(?:rcfile|init-file)$/)[0]!, 'shell', w, more);
    return;
  }
  switch (name) {
    case 'source':
    case '.':
      if (args[0] !== undefined) scriptFile(args[0], 'shell', w, more);
      return;
    case 'eval':
      more.push(args.join(' '));
      return;
    case 'git':
      gitWrites(cmd, args, w, runs);
      return;
    case 'patch': {
      // `patch FILE [PATCH]` rewrites FILE, or writes `-o OUT` instead; with no FILE it takes the names the patch
      // itself holds, which the command's text does not tell.
      const valued =
        /^-[BDdFgioprVYz]$|^--(?:prefix|ifdef|directory|fuzz|get|input|output|strip|reject-file|version-control|basename-prefix|suffix|quoting-style)$/;
      const out = optionValue(args, /^-o$|^--output$/, /^-o(.+)$|^--output=(.*)$/);
      const file = out ?? operands(args, valued)[0];
      const dir = optionValue(args, /^-d$|^--directory$/, /^-d(.+)$|^--directory=(.*)$/);
      if (file !== undefined) {
        w.paths.push(inFolder(dir, file));
        return;
      }
      // With no file named, the patch names them: the patch file (`-i FILE`, read in `-d DIR`, or its input), a
      // here-document, or what `echo` pipes to it.
      const input = optionValue(args, /^-i$|^--input$/, /^-i(.+)$|^--input=(.*)$/);
      const strip = stripLevel(args);
      w.paths.push(...(input !== undefined ? [] : diffFiles(given(cmd), strip).map((f) => inFolder(dir, f))));
      patchFiles(cmd, input === undefined ? [] : [inFolder(dir, input)], { strip, ...(dir === undefined ? {} : { root: dir }) }, w);
      return;
    }
    case 'tar':
    case 'bsdtar':
    case 'gtar':
    case 'unzip':
    case '7z':
    case '7za':
    case '7zz':
    case 'jar': {
      // An archive extracted writes the files it holds, which the hook reads from it.
      const input = name === 'unzip' ? unzipInput(args) : name.startsWith('7z') ? sevenZipInput(args, w) : tarInput(args, name === 'jar');
      if (input !== undefined) w.inputs.push(input);
      return;
    }
    case 'cat':
      // A here-document put in a file (`cat > p.diff <<EOF`) is read again where a patch file of that name is applied.
      if (cmd.heredocs.length > 0 && operands(args).length === 0)
        for (const file of cmd.redirected) w.written.set(writtenKey(file), cmd.heredocs.join('\n'));
      return;
    case 'touch':
    case 'truncate':
    case 'shred':
      w.paths.push(...operands(args, /^-[rdtsnu]$|^--(?:reference|date|size|iterations|random-source)$/));
      return;
    case 'rm':
    case 'unlink':
    case 'rmdir': {
      const files = operands(args);
      w.paths.push(...files);
      w.removes.push(...files);
      return;
    }
    case 'cp':
    case 'mv':
    case 'install':
    case 'rsync':
    case 'scp':
    case 'ln':
      copied(name, args, w);
      return;
    case 'sed':
    case 'perl': {
      // In place (`-i`, `-i.bak`, `-pi`, `--in-place`), it rewrites each file it is given: its operands but the first,
      // which is its script unless an option gave one (`-e`, `-f`; BSD sed's `-i ''` gives an empty suffix first).
      if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return;
      const valued = name === 'sed' ? /^-[efl]$|^--(?:expression|file|line-length)$/ : /^-[eEIxm]$/;
      const files = operands(args, valued);
      if (files[0] === '' && args.includes('-i')) files.shift();
      const scripted = args.some((a) => (name === 'sed' ? /^-[a-zA-Z]*[ef]|^--(?:expression|file)/ : /^-[a-zA-Z]*[eE]/).test(a));
      w.paths.push(...(scripted ? files : files.slice(1)));
      return;
    }
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) w.paths.push(a.slice(3));
      return;
    case 'tee': {
      const files = operands(args);
      if (cmd.heredocs.length > 0) for (const file of files) w.written.set(writtenKey(file), cmd.heredocs.join('\n'));
      w.paths.push(...files);
      return;
    }
    case 'curl':
    case 'wget':
      w.paths.push(...downloads(name, args));
      return;
    case 'make':
    case 'gmake': {
      // `make`'s recipes, read from its makefile by the hook.
      const run = makeRun(args);
      for (const file of run?.files ?? [])
        w.inputs.push({ kind: 'script', file, language: 'make', targets: run!.targets, ...(run!.dir === '' ? {} : { dir: run!.dir }) });
      return;
    }
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      w.paths.push(...awkWrites(args));
      return;
    case 'sort':
      // The file `sort -o FILE` writes its lines to.
      w.paths.push(...optionValues(args, /^-o$|^--output$/, /^-o(.+)$|^--output=(.*)$/));
      return;
    case 'find': {
      // `-exec CMD ;` runs CMD; `-delete` deletes what it finds below the folders it starts from.
      for (let i = 0; i < args.length; i++)
        if (/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!)) {
          // Looked for from here on, not from the start: a find of thousands of `-exec`s was read in quadratic time.
          let end = i + 1;
          while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
          runs.push({ words: args.slice(i + 1, end), redirected: [], heredocs: [] });
          i = end;
        }
      if (args.includes('-delete')) {
        const start = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
        const roots = args.slice(0, start < 0 ? args.length : start);
        const from = roots.length > 0 ? roots : ['.'];
        w.paths.push(...from);
        w.removes.push(...from);
      }
      return;
    }
  }
  // A Python or Node.js program given inline, on the input, or as a script file the hook reads.
  const interpreter = interpreted(name, args, () => given(cmd));
  if (interpreter !== undefined) {
    w.paths.push(...interpreter.paths);
    w.removes.push(...interpreter.removes);
    if (interpreter.file !== undefined) scriptFile(interpreter.file, interpreter.language, w, more);
    return;
  }
  // A package manager writes its package's manifest and lock files (`npm install x`), which the hook finds.
  const managed = packageInput(name, args);
  if (managed !== undefined) {
    w.inputs.push(managed);
    return;
  }
  // A compressor replaces the file it is given (`gzip a` writes `a.gz`, deletes `a`).
  const packed = compressed(name, args);
  if (packed !== undefined) {
    w.paths.push(...packed.paths);
    w.removes.push(...packed.removes);
    return;
  }
  // A formatter or fixer run in place (`npx prettier --write FILE`) rewrites the files it is given.
  const formatting = formatted(words);
  w.paths.push(...formatting);
  // A program run by its path (`./fix.sh`, `scripts/gen`): a script of its own, read by its `#!` line.
  if (formatting.length === 0 && (words[0] ?? '').includes('/')) scriptFile(words[0]!, 'auto', w, more);
}

/**
 * A script file a command runs: one the same command wrote from a here-document (`cat > fix.sh <<EOF`) is read from
 * that text, a shell script as a script run in turn (`more`); any other is left for the hook to read.
 */
function scriptFile(file: string, language: ScriptInput['language'], w: Reading, more: string[]): void {
  const text = w.written.get(writtenKey(file));
  if (text === undefined) {
    w.inputs.push({ kind: 'script', file, language });
    return;
  }
  const read = language === 'auto' ? scriptLanguage(file, text) : language;
  if (read === 'shell') more.push(text);
  else if (read === 'python' || read === 'node') {
    const wrote = programWrites(read, text);
    w.paths.push(...wrote.paths);
    w.removes.push(...wrote.removes);
  }
}

/**
 * What `command` writes ({@link ShellWrites}), paths as written: relative to the folder it runs in. A device
 * (`/dev/null`, `/dev/stderr`) is no file of any repository, and is left out.
 */
export function shellWrites(command: string | readonly string[]): ShellWrites {
  const w: Reading = { paths: [], removes: [], moves: [], links: [], made: [], inputs: [], written: new Map(), vars: new Map() };
  // Scripts still to read: the command, then each script it runs. Each is a part of the one before, its quotes taken
  // off, so the reading ends. An argv (`["bash", "-lc", "…"]`) is one command, its words as given.
  const scripts: string[] = typeof command === 'string' ? [command] : [];
  const runs: Simple[] = typeof command === 'string' ? [] : [{ words: [...command], redirected: [], heredocs: [] }];
  // Each script or command read is a part of the one that runs it, yet `eval eval … x` or `find -exec find -exec …`
  // read the rest again at each level: past a few times the command's length, the hook cannot judge it in its time.
  let budget = 8 * (typeof command === 'string' ? command.length : command.join(' ').length) + 65_536;
  const spend = (cost: number) => {
    budget -= cost;
    if (budget < 0 || w.paths.length > MAX_SHELL_PATHS)
      throw new UsageError(
        "the command runs scripts within scripts (eval, sh -c, $(…), find -exec) nested too deep, or names too many files, to judge each file it writes in the hook's time",
        'Run it as shorter commands, each one written out.',
      );
  };
  for (let s = 0, r = 0; s < scripts.length || r < runs.length; ) {
    if (r < runs.length) {
      const run = runs[r++]!;
      spend(run.words.length);
      commandWrites(run, w, scripts, runs);
      continue;
    }
    spend(scripts[s]!.length);
    for (const cmd of lex(scripts[s++]!, scripts)) commandWrites(cmd, w, scripts, runs);
  }
  const kept = (p: string) => p !== '' && p !== '-' && !p.startsWith('/dev/');
  // A word naming a variable the script gives a value (`F=secrets/k; echo x > "$F"`) stands for each value too.
  const expanded = (paths: readonly string[]) =>
    paths.flatMap((p) => {
      const each = expandVariables(p, w.vars, MAX_SHELL_PATHS);
      if (each === undefined) spend(Number.POSITIVE_INFINITY);
      return each ?? [];
    });
  const moves = w.moves.flatMap((m) => {
    const tos = expanded([m.to]);
    return expanded([m.from]).flatMap((from) => tos.map((to) => ({ ...m, from, to })));
  });
  return {
    paths: [...new Set(expanded(w.paths).filter(kept))],
    removes: [...new Set(expanded(w.removes).filter(kept))],
    // Each move once: a command repeating one (`cp a secrets/;` a thousand times) is no more moves for the hook to judge.
    moves: [...new Map(moves.filter((m) => kept(m.from) && kept(m.to)).map((m) => [`${m.from}\0${m.to}\0${m.copy}`, m])).values()],
    links: w.links.filter((l) => kept(l.name)),
    made: [...new Set(w.made.filter(kept))],
    inputs: w.inputs.filter((i) => i.file === '' || kept(i.file)),
  };
}
