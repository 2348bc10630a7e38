/**
 * What a shell command or a Codex patch given to an agent's tool names (docs/guard.md): the folders a script changes to,
 * and the files and added text of a patch it applies. Pure: paths stay as written, joined without the file system.
 */
import { UsageError } from './errors.ts';
import { wordAt } from './guard-shell-lex.ts';
import { inputTargets, type ShellInput, unreadFolders } from './guard-shell-inputs.ts';
import { makeRecipes } from './guard-shell-make.ts';
import { programWrites, scriptLanguage } from './guard-shell-programs.ts';
import { type ShellWrites, shellWrites } from './guard-shell-writes.ts';
import { LONGEST_PATH } from './limits.ts';

/**
 * The paths and the added text of a Codex `apply_patch` patch
 * (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`,
 * white space before them allowed; added lines start with `+`). The format has no
 * `+++ file` header: Codex adds `+++x` as the line `++x`, so it is added text here too.
 */
export function patchParts(patch: string): { paths: string[]; texts: string[] } {
  // A set, not a list searched for each header: a patch of many files was judged in time quadratic in their number.
  const paths = new Set<string>();
  const added: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    // Codex reads a file's header with white space around it (its parser trims the line): so is it read here.
    const m = /^\s*\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line);
    if (m) {
      const p = m[1]!.trim();
      if (p !== '') paths.add(p);
    } else if (line.startsWith('+')) added.push(line.slice(1));
  }
  return { paths: [...paths], texts: added.length > 0 ? [added.join('\n')] : [] };
}

/** A command that runs Codex's patch tool (`apply_patch`, or its other name `applypatch`). */
export const APPLY_PATCH = /(?:^|[\s;&|('"])(?:apply_patch|applypatch)(?=$|[\s;&|)'"<])/;

/**
 * The folder a `cd DIR && apply_patch <<'EOF'` script changes to: Codex applies the patch there (its paths are
 * relative to DIR), as a shell would. DIR is a word, or a string in double or single quotes.
 */
const APPLY_PATCH_CD = /(?:^|[\s;&|(])cd\s+(?:'([^']*)'|"([^"]*)"|([^\s'"&;|]+))\s*&&\s*(?:apply_patch|applypatch)(?=$|[\s<])/;

/**
 * Each folder a `cd DIR` or `pushd DIR` of a script changes to (a word, or a string in quotes), after its options (`cd
 * -P --`); in a script given to a shell in quotes or backticks too (`bash -c "cd DIR && …"`), which runs it as well.
 */
const CHANGE_FOLDER = /(?:^|[\s;&|('"`])(?:cd|pushd)\s+(?:-[-\w]*\s+)*(?:'([^']*)'|"([^"]*)"|([^\s'"`&;|)]+))/g;

/**
 * A program's own option naming the folder it works in, which runs it there without a `cd`: `git -C DIR`, `make -C DIR`
 * (`--directory=DIR`), `env -C DIR` (`--chdir`), `terraform -chdir=DIR`, `npm --prefix DIR`, `yarn --cwd DIR`, `pnpm
 * --dir DIR`. Read in any command: another program's `-C` (`grep -C 3`) only adds a folder, whose guards then judge
 * the command too, the side a guard errs on. A long option ends at its `=` or a blank: `--dirty` names no folder `ty`.
 */
const PROGRAM_FOLDER =
  /(?:^|[\s;&|('"`])(?:-C\s*|--(?:directory|chdir|cwd|prefix|dir)(?:=|\s+)|-chdir=)(?:'([^']*)'|"([^"]*)"|([^\s'"`&;|)]+))/g;

/**
 * The folders a shell script may be in at its end, relative to where it starts ('' that folder): where it starts, and
 * after each change of folder (`cd DIR`, `pushd DIR`) the folder it has gone to, each change also taken by itself (a
 * `cd` that failed leaves the script where it was). `~` and `~user` are home folders to the shell: a fresh start, as an
 * absolute folder is.
 *
 * Read from the raw text, not from the lexer's commands (guard-shell-lex.ts), which would tell the folders otherwise,
 * fewer in places: the lexer takes `cd "services"/billing` as the one word `services/billing`, where this keeps its
 * first piece too (tested, and in docs/guard.md); it reads a `cd` or `-C` only where a command starts, and scripts it
 * runs after the one that runs them, where this finds one in any text (`ssh host 'cd secrets && …'`, `echo cd x`)
 * and in the order written; and it reads a script whole, where this stops after too many changes of folder.
 */
function scriptFolders(script: string, programs = false): string[] {
  const folders = new Set<string>(['']);
  let here = '';
  // Where the script is when each word is read whole: a later `cd` goes on from there, not only from the first pieces.
  let hereByWords = '';
  let changes = 0;
  // With `programs`, the folders a program's own option runs it in too (PROGRAM_FOLDER), where the script is then;
  // they change no folder for what follows.
  // No more of each than make too many: a script of millions is refused after the first ones, not read whole first.
  const runs = programs ? first(script.matchAll(PROGRAM_FOLDER), MAX_FOLDER_CHANGES + 1).map((m) => ({ m, run: true })) : [];
  const cds = first(script.matchAll(CHANGE_FOLDER), MAX_FOLDER_CHANGES + 1).map((m) => ({ m, run: false }));
  const steps = [...cds, ...runs].sort((a, b) => a.m.index - b.m.index);
  for (const { m, run } of steps) {
    const dir = m[1] ?? m[2] ?? m[3]!;
    // The folder's word read whole from where it starts, its quotes (two characters when quoted) included.
    // Read as the lexer reads a word, no further than twice the longest path a system takes, past which no folder is
    // entered: a word of megabytes after each of many `cd`s is not read whole each time.
    const start = m.index + m[0].length - (m[3] === undefined ? dir.length + 2 : dir.length);
    const word = wordAt(script, start, start + 2 * LONGEST_PATH);
    if (run) {
      // A folder named past any path's length is none the program enters: it fails there, as a `cd` would.
      for (const f of [fromFolder(here, dir), fromFolder(hereByWords, word)]) if (f.length <= LONGEST_PATH) folders.add(f);
      if (++changes > MAX_FOLDER_CHANGES) throw tooManyFolders(changes);
      continue;
    }
    // The whole word too, where quotes inside it (`"sec"rets`) make it another folder than its first piece: the
    // folder the shell goes to. The first piece stays a folder it may be in: a script in quotes (`bash -c "cd DIR"`)
    // ends the word at its closing quote, which the whole word would run on past.
    here = fromFolder(here, dir);
    // A whole word run on past any path's length is no folder the shell enters: that reading goes on from `here`.
    const byWords = fromFolder(hereByWords, word);
    hereByWords = byWords.length > LONGEST_PATH ? here : byWords;
    if (word !== dir) folders.add(word);
    if (hereByWords !== here) folders.add(hereByWords);
    // Each folder is judged by the file system's paths: a script of thousands of changes, or of a folder named past any
    // system's limit, held the hook past its time (and the client's, which then lets the call through unlogged).
    if (++changes > MAX_FOLDER_CHANGES || here.length > LONGEST_PATH) throw tooManyFolders(changes);
    folders.add(here).add(dir);
  }
  return [...folders];
}

/** The first `n` items of `items`, the rest not read. */
function first<T>(items: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  for (const item of items) if (out.push(item) >= n) break;
  return out;
}

/** A script of more changes of folder than the hook judges in its time, or of a folder no system enters. */
function tooManyFolders(changes: number): UsageError {
  return new UsageError(
    changes > MAX_FOLDER_CHANGES
      ? `the command changes folder more than ${MAX_FOLDER_CHANGES} times (cd, pushd, -C): too many folders to judge each in the hook's time`
      : `the command changes to a folder named in more than ${LONGEST_PATH} characters, which no system enters`,
    'Run it as shorter commands, each in the folder it works in.',
  );
}

/** How many changes of folder (`cd`, `pushd`) a command may make: each folder it may run in is judged by itself. */
const MAX_FOLDER_CHANGES = 1_000;

/** How many paths a patch a shell script applies may make, its files taken in each folder the script may be in. */
const MAX_PATCH_PATHS = 100_000;

/**
 * The paths of a patch a shell script applies, as the folders it may apply them in name them. Codex applies a patch
 * of `cd DIR && apply_patch` in DIR. Any other change of folder before it (`cd DIR; apply_patch`, two `cd`s,
 * `pushd`) is the shell's, which runs the `apply_patch` Codex puts on its PATH where the script has gone: each
 * folder it may be in is judged ({@link scriptFolders}), not only the first.
 */
export function patchPathsIn(command: string, paths: readonly string[]): string[] {
  const at = APPLY_PATCH.exec(command)?.index ?? command.length;
  const folders = scriptFolders(command.slice(0, at));
  const cd = APPLY_PATCH_CD.exec(command);
  if (folders.length === 2 && cd) return paths.map((p) => joinPath(cd[1] ?? cd[2] ?? cd[3]!, p));
  if (folders.length * paths.length > MAX_PATCH_PATHS)
    throw new UsageError(
      `the command applies a patch of ${paths.length} files in ${folders.length} folders it may be in: more than ${MAX_PATCH_PATHS} paths to judge in the hook's time`,
      'Apply the patch from the folder it is written for (cd DIR && apply_patch), or as several patches.',
    );
  const out = new Set<string>();
  for (const base of folders) for (const p of paths) out.add(base === '' ? p : joinPath(base, p));
  return [...out];
}

/**
 * The files a shell command writes ({@link shellWrites}), each named from every folder the script may be in
 * ({@link scriptFolders}): a write after `cd DIR` is DIR's file, and which `cd` held is not in the text.
 */
export function shellWritesIn(
  command: string,
  argv?: readonly string[],
): Pick<ShellWrites, 'paths'> & Partial<Pick<ShellWrites, 'removes' | 'moves'>> & { inputs?: PlacedInput[] } {
  const w = shellWrites(argv ?? command);
  if (w.paths.length === 0 && w.made.length === 0 && w.inputs.length === 0) return { paths: [] };
  const folders = scriptFolders(command);
  if (folders.length * (w.paths.length + w.made.length + 2 * w.moves.length) > MAX_PATCH_PATHS)
    throw tooManyWrites(w.paths.length, folders.length);
  const inEach = (p: string) => folders.map((base) => fromFolder(base, p));
  const paths = new Set(w.paths.flatMap(inEach));
  // A file written through a link the command made is its target's (`ln -s secrets l && echo x > l/key`): each such
  // path is named through the target too, a link to a link through its target's in turn.
  // Each path's folders are looked up by name, and a chain is followed as far as a system follows links (40).
  const links = new Map<string, string[]>();
  for (const l of w.links)
    for (const base of folders) {
      // Added to in place: copying the list at each link made a command of thousands of links of one name quadratic.
      const targets = links.get(fromFolder(base, l.name)) ?? [];
      if (targets.length === 0) links.set(fromFolder(base, l.name), targets);
      targets.push(fromFolder(base, l.target));
    }
  let added = [...paths];
  for (let round = 0; round < 40 && added.length > 0 && links.size > 0; round++) {
    const next: string[] = [];
    for (const p of added)
      for (let end = p.indexOf('/'); ; end = p.indexOf('/', end + 1)) {
        for (const target of links.get(end < 0 ? p : p.slice(0, end)) ?? []) {
          const through = target + (end < 0 ? '' : p.slice(end));
          if (!paths.has(through)) next.push(through);
          paths.add(through);
        }
        if (end < 0) break;
      }
    if (paths.size > MAX_PATCH_PATHS) throw tooManyWrites(paths.size, folders.length);
    added = next;
  }
  for (const p of w.made.flatMap(inEach)) paths.add(p);
  const removes = [...new Set(w.removes.flatMap(inEach))];
  const moves = w.moves.flatMap((m) => folders.map((base) => ({ ...m, from: fromFolder(base, m.from), to: fromFolder(base, m.to) })));
  // A package manager with no folder named works where it runs: its folder is where the hook looks for its package.
  const placed = (i: ShellInput, at: string) =>
    i.kind === 'package' ? fromFolder(at, i.file === '' ? '.' : i.file) : i.file === '' ? '' : fromFolder(at, i.file);
  // What git lists is the repository's whatever folder the command is in: asked once. Each input once, however many
  // times the command names it (`git stash; …; git stash`), for the hook reads each.
  const each = new Map<string, PlacedInput>();
  for (const i of w.inputs)
    for (const at of i.kind === 'git' ? [''] : folders) {
      const input = { ...i, file: placed(i, at), at };
      each.set(JSON.stringify(input), input);
    }
  const inputs = [...each.values()];
  return {
    paths: [...paths],
    ...(removes.length > 0 ? { removes } : {}),
    ...(moves.length > 0 ? { moves } : {}),
    ...(inputs.length > 0 ? { inputs } : {}),
  };
}

/** A patch file or archive a command reads ({@link ShellInput}), its `file` named from where the command starts, read in `at`. */
export type PlacedInput = ShellInput & { at: string };

/**
 * The files a placed input makes its command write ({@link inputTargets}), named from where the command starts, and
 * from the repository's `top` too for `git apply`'s: git reads a `diff --git` patch's names from the top in any
 * folder, and another patch's from the folder it runs in. `read` is the patch's text or the archive's names,
 * undefined where the hook could not read them.
 */
export function placedTargets(input: PlacedInput, read: string | readonly string[] | undefined, top: string): string[] {
  // A script file, read as its language: its writes named from where it runs (what it reads in turn, not).
  if (input.kind === 'script') {
    if (typeof read !== 'string') return [];
    const language = input.language === 'auto' ? scriptLanguage(input.file, read) : input.language;
    if (language === 'python' || language === 'node') return programWrites(language, read).paths.map((p) => fromFolder(input.at, p));
    // A shell script is read as the command is; a makefile's recipes for the targets asked, each line a command run
    // in its folder.
    const scripts = language === 'shell' ? [read] : language === 'make' ? makeRecipes(read, input.targets ?? []) : [];
    const dir = input.dir === undefined || input.dir === '' ? input.at : fromFolder(input.at, input.dir);
    return scripts.flatMap((script) => {
      // A script past what the hook reads in its time (nested too deep, too many files: a generated `configure`) is a
      // program whose writes it cannot tell, as a binary's, not a call it cannot decide.
      try {
        return shellWritesIn(script).paths.map((p) => fromFolder(dir, p));
      } catch (error) {
        if (error instanceof UsageError) return [];
        throw error;
      }
    });
  }
  // A package's files are named from its folder, which its placed `file` names already.
  const bases =
    input.kind === 'patch' && input.fromTop ? [top, input.at] : input.kind === 'package' ? [''] : input.kind === 'git' ? [top] : [input.at];
  return inputTargets(input, read).flatMap((t) => bases.map((base) => fromFolder(base, t)));
}

/** The folders a placed input that could not be read writes files of unknown names into ({@link unreadFolders}), named from where the command starts. */
export function placedUnreadFolders(input: PlacedInput): string[] {
  return unreadFolders(input).map((f) => fromFolder(input.at, f));
}

/** A command that writes more files, in the folders it may be in, than the hook judges in its time. */
function tooManyWrites(files: number, folders: number): UsageError {
  return new UsageError(
    `the command writes ${files} files in ${folders} folders it may be in: more than ${MAX_PATCH_PATHS} paths to judge in the hook's time`,
    'Run it as shorter commands, each in the folder it works in.',
  );
}

/** The folders a command changes to ({@link scriptFolders}), for a hook's action (`cds`): none when it changes to none. */
export function commandFolders(command: string): { cds?: string[] } {
  const cds = scriptFolders(command, true).filter((f) => f !== '');
  return cds.length > 0 ? { cds } : {};
}

/**
 * `path` as named from `folder` ('' where the script starts), as the shell reads it: `~` and `~user` are home folders,
 * a fresh start, as an absolute path is.
 */
function fromFolder(folder: string, path: string): string {
  return folder === '' || path.startsWith('~') ? path : joinPath(folder, path);
}

/** `dir` against `cwd` (POSIX), without the file system: absolute stays, relative is appended. */
function joinPath(cwd: string, dir: string): string {
  return dir.startsWith('/') ? dir : `${cwd.replace(/\/+$/, '')}/${dir}`;
}
