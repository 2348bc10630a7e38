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
import { diffFiles, stripLevel } from './guard-shell-diff.ts';
import { downloads } from './guard-shell-downloads.ts';
import { formatted } from './guard-shell-formatters.ts';
import { compressed, type PatchInput, type ShellInput, sevenZipInput, tarInput, unzipInput } from './guard-shell-inputs.ts';
import { basename, inFolder, KEYWORDS, lex, type Simple } from './guard-shell-lex.ts';
import { packageInput } from './guard-shell-packages.ts';
import { interpreted } from './guard-shell-programs.ts';
import { expandVariables, recordVariables, type Variables } from './guard-shell-variables.ts';
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
const SHELLS = /^(?:sh|bash|zsh|dash|ksh|mksh|ash|busybox|su)$/;

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

/**
 * The options of each copying program that take the next word as their value: each program's own, since a letter of
 * one is a flag of another (`cp -f` forces; rsync's `-f` gives a filter), and a flag read as taking a value hid the
 * source it was followed by (`cp -f a secrets/k` was read as writing nothing).
 */
const COPY_VALUED: Record<string, RegExp> = {
  cp: /^-S$|^--suffix$/,
  mv: /^-S$|^--suffix$/,
  ln: /^-S$|^--suffix$/,
  install: /^-[mogS]$|^--(?:mode|owner|group|suffix|strip-program)$/,
  rsync: /^-[efBT]$|^--(?:rsh|exclude|include|filter|block-size|temp-dir|files-from|exclude-from|include-from)$/,
  scp: /^-[cFiJloPS]$/,
};

/** Whether `w` is an option word (`-f`, `--force`), not a file; `-` alone is standard input. */
const isOption = (w: string) => w.length > 1 && w.startsWith('-');

/** The words of a command after its runners (`sudo`, `env X=1`, `xargs -n 1`) and assignments, and the scripts they run. */
function program(words: readonly string[], more: string[]): string[] {
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
function piped(input: Simple | undefined): string[] {
  if (input === undefined) return [];
  const words = program(input.words, []);
  const printed = /^(?:echo|printf)$/.test(basename(words[0] ?? '')) ? [words.slice(1).join(' ')] : [];
  return [...input.heredocs, ...printed];
}

/** The arguments that are not options (after `--`, every one), leaving out the values of the options `valued` takes. */
function operands(args: readonly string[], valued?: RegExp): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return [...out, ...args.slice(i + 1)];
    if (!isOption(a)) out.push(a);
    else if (valued?.test(a)) i++;
  }
  return out;
}

/**
 * The folder a `-t DIR`, `-tDIR` or `--target-directory=DIR` option names, the `t` after flags of no value too (`-rt
 * DIR`, `-rtDIR`), as getopt reads them; not after a letter whose value the rest is (`-S SUFFIX`, install's `-m MODE`).
 */
function targetFolder(args: readonly string[]): { dir: string; rest: string[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const long = /^--target-directory=(.*)$/.exec(a);
    if (long) return { dir: long[1]!, rest: args.filter((_, j) => j !== i) };
    if (a === '--target-directory') return { dir: args[i + 1] ?? '', rest: args.filter((_, j) => j !== i && j !== i + 1) };
    const short = /^-([A-Za-z]*?)t(.*)$/.exec(a);
    if (!short || /[Smog]/.test(short[1]!)) continue;
    if (short[2] !== '') return { dir: short[2]!, rest: args.filter((_, j) => j !== i) };
    return { dir: args[i + 1] ?? '', rest: args.filter((_, j) => j !== i && j !== i + 1) };
  }
  return undefined;
}

/** The values of each option `separate` (its value the next word) or `joined` (its value in the word) names, before `--`. */
function optionValues(args: readonly string[], separate: RegExp, joined: RegExp): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const inWord = joined.exec(args[i]!);
    if (separate.test(args[i]!)) values.push(args[++i] ?? '');
    else if (inWord) values.push(inWord[1] ?? inWord[2] ?? '');
  }
  return values;
}

/** The value the last such option gives, as a program that takes one reads it. */
const optionValue = (args: readonly string[], separate: RegExp, joined: RegExp): string | undefined =>
  optionValues(args, separate, joined).at(-1);

/**
 * The files `git checkout`, `git restore` or `git stash push` puts back from the index or a revision, or `git clean
 * -f` deletes. `restore` takes paths alone, and writes none with `--staged` alone (the index, not the files);
 * `checkout` writes the paths after `--`, or those after its first operand, which names a revision (with one operand
 * alone it switches branches: which files that rewrites the text does not tell).
 */
function restored(command: 'checkout' | 'restore' | 'stash' | 'clean', args: readonly string[]): string[] {
  // `git clean -f PATH` deletes the untracked files below the paths it is given (with no path, below the top: which
  // ones, only git knows); `git stash push PATH` puts the paths back as `restore` does.
  if (command === 'clean')
    return args.some((a) => /^-[a-zA-Z]*f|^--force$/.test(a)) && !args.some((a) => /^-[a-zA-Z]*n|^--dry-run$/.test(a))
      ? operands(args, /^-e$|^--exclude$/)
      : [];
  if (command === 'stash') {
    const dashes = args.indexOf('--');
    if (dashes >= 0) return args.slice(dashes + 1);
    return args[0] === 'push' ? operands(args.slice(1), /^-m$|^--message$|^--pathspec-from-file$/) : [];
  }
  if (command === 'restore') {
    const staged = args.some((a) => a === '--staged' || /^-[a-zA-Z]*S/.test(a));
    const worktree = args.some((a) => a === '--worktree' || /^-[a-zA-Z]*W/.test(a));
    return staged && !worktree ? [] : operands(args, /^-s$|^--source$|^--pathspec-from-file$/);
  }
  const dashes = args.indexOf('--');
  if (dashes >= 0) return args.slice(dashes + 1);
  return operands(args, /^-[bB]$|^--orphan$|^--conflict$|^--pathspec-from-file$/).slice(1);
}

/** The texts a command is given on its input: its here-documents and here-strings, and what `echo` or `printf` pipes to it. */
const given = (cmd: Simple): string[] => [...cmd.heredocs, ...piped(cmd.input)];

/**
 * The patch files a command reads: those `named`, else the file its input is redirected from (`< fix.diff`) or that
 * `cat` pipes to it. A file the script itself wrote from a here-document is read from that text; any other is left
 * for the hook to read.
 */
function patchFiles(cmd: Simple, named: readonly string[], patch: Omit<PatchInput, 'kind' | 'file'>, w: Reading): void {
  let files = named;
  if (files.length === 0 && cmd.readFrom !== undefined) files = cmd.readFrom;
  const source = cmd.input === undefined ? [] : program(cmd.input.words, []);
  if (files.length === 0 && basename(source[0] ?? '') === 'cat') files = operands(source.slice(1));
  for (const file of files) {
    const text = w.written.get(file);
    w.inputs.push({ kind: 'patch', file, ...patch, ...(text === undefined ? {} : { text }) });
  }
}

/**
 * The files `git apply` changes from its patch files, or a patch on its input (no file named, or `-`), `-p1`
 * unless told, named from the repository's top and from where it runs: none with `--cached` alone (the index), or
 * when it only reports (`--check`, `--stat`, `--numstat`, `--summary`).
 */
function applied(cmd: Simple, args: readonly string[], w: Reading): void {
  const reports = args.some((a) => /^--(?:check|stat|numstat|summary)$/.test(a)) && !args.includes('--apply');
  if (reports || (args.includes('--cached') && !args.includes('--index'))) return;
  const root = optionValue(args, /^--directory$/, /^--directory=(.*)$/);
  const patch = { strip: stripLevel(args) ?? 1, ...(root === undefined ? {} : { root }), fromTop: true as const };
  const files = operands(args, /^-p$|^--directory$|^--exclude$|^--include$|^-C$/).filter((a) => a !== '-');
  if (files.length === 0) for (const text of given(cmd)) w.inputs.push({ kind: 'patch', file: '', ...patch, text });
  patchFiles(cmd, files, patch, w);
}

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
  if (SHELLS.test(name)) {
    // `bash -c 'script'` (`-lc`, `-ec`), and a here-document given to a shell, run a script of their own.
    const c = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
    if (c >= 0 && args[c + 1] !== undefined) more.push(args[c + 1]!);
    if (name === 'busybox') runs.push({ words: args, redirected: [], heredocs: cmd.heredocs, input: cmd.input });
    else if (c < 0 && operands(args).length === 0) more.push(...given(cmd));
    return;
  }
  switch (name) {
    case 'eval':
      more.push(args.join(' '));
      return;
    case 'git': {
      // `git mv` and `git rm` move and delete as `mv` and `rm` do, after git's own options (`-C DIR`, `-c KEY=VALUE`).
      let k = 0;
      while (k < args.length && isOption(args[k]!)) k += /^-[Cc]$/.test(args[k]!) ? 2 : 1;
      const sub = args[k];
      if (sub === 'mv' || sub === 'rm') runs.push({ words: args.slice(k), redirected: [], heredocs: [] });
      else if (sub === 'apply') applied(cmd, args.slice(k + 1), w);
      else if (sub === 'checkout' || sub === 'restore' || sub === 'stash' || sub === 'clean') {
        // A folder put back rewrites files below it, as a folder deleted takes every one of them away.
        const files = restored(sub, args.slice(k + 1));
        w.paths.push(...files);
        w.removes.push(...files);
      }
      return;
    }
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
        for (const file of cmd.redirected) w.written.set(file, cmd.heredocs.join('\n'));
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
    case 'ln': {
      // rsync's `-t` keeps times, and names no folder; nor does scp's.
      const target = name === 'rsync' || name === 'scp' ? undefined : targetFolder(args);
      const files = operands(target?.rest ?? args, COPY_VALUED[name]);
      if (name === 'install' && args.includes('-d')) {
        w.paths.push(...files);
        return;
      }
      const to = target?.dir ?? (files.length >= 2 ? files.pop()! : undefined);
      // A copy to another host (`scp a host:x`, `rsync a host:x`) writes nothing here.
      if ((name === 'scp' || name === 'rsync') && to !== undefined && /^[^/]+:/.test(to)) return;
      const symbolic = name === 'ln' && args.some((a) => /^-[a-zA-Z]*s/.test(a) || a === '--symbolic');
      const made = symbolic ? w.made : w.paths;
      if (to === undefined) {
        // `ln -s TARGET` makes a link of the target's name here.
        if (name === 'ln' && files.length === 1) made.push(basename(files[0]!));
        return;
      }
      made.push(to);
      for (const from of files) {
        const into = `${to.replace(/\/+$/, '')}/${basename(from)}`;
        made.push(into);
        if (name === 'mv') w.paths.push(from);
        if (name === 'ln') {
          // A symbolic link's target is named from the link's folder; a hard link's, from where the command runs.
          for (const link of target === undefined && files.length === 1 ? [to, into] : [into]) {
            const folder = link.includes('/') ? link.slice(0, link.lastIndexOf('/')) : '';
            const named = symbolic && !from.startsWith('/') && folder !== '' ? `${folder}/${from}` : from;
            w.links.push({ name: link.replace(/\/+$/, ''), target: named });
          }
          continue;
        }
        const copy = name === 'mv' ? {} : { copy: true as const };
        w.moves.push({ from, to, ...copy }, { from, to: into, ...copy });
      }
      return;
    }
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
      if (cmd.heredocs.length > 0) for (const file of files) w.written.set(file, cmd.heredocs.join('\n'));
      w.paths.push(...files);
      return;
    }
    case 'curl':
    case 'wget':
      w.paths.push(...downloads(name, args));
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
  const interpreter = interpreted(name, args, () => given(cmd), w.written);
  if (interpreter !== undefined) {
    w.paths.push(...interpreter.paths);
    w.removes.push(...interpreter.removes);
    w.inputs.push(...interpreter.inputs);
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
  w.paths.push(...formatted(words));
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
