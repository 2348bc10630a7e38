/**
 * What the hook reads, when it runs, to learn which files a shell command writes (docs/guard.md, "Shell commands"):
 * the patch file `patch` or `git apply` is given, the archive `tar -x` or `unzip` extracts, the script file a command
 * runs, the package a package manager works on, and the files git lists for a git command; and the files a compressor
 * replaces (`gzip FILE`, `gunzip FILE.gz`), which their names tell. Pure: the hook reads at its edge and asks
 * {@link inputTargets} for the names.
 */
import { diffFiles } from './guard-shell-diff.ts';
import { basename, inFolder } from './guard-shell-lex.ts';
import type { PackageInput } from './guard-shell-packages.ts';
import type { ScriptInput } from './guard-shell-programs.ts';

/**
 * A patch file whose headers name the files it changes, `strip` folders off each (`-pN`), in `root` (`--directory`):
 * its `text` where the command itself gives it (a here-document), else read from `file`. `fromTop`: the names may be
 * the repository's from its top as well, as `git apply` reads a `diff --git` patch's in any folder of it.
 */
export interface PatchInput {
  kind: 'patch';
  file: string;
  strip: number | undefined;
  root?: string | undefined;
  text?: string;
  fromTop?: true;
}

/**
 * An archive extracted into each folder of `into` ('' where the command runs): its members, or those under
 * `members` when some are named; `strip` leading folders off each (`--strip-components`), the folders all off
 * (`flat`, `unzip -j`); a leading `/` kept only with `absolute` (`tar -P`).
 */
export interface ArchiveInput {
  kind: 'archive';
  file: string;
  program: 'tar' | 'unzip';
  into: string[];
  members: string[];
  strip: number;
  flat: boolean;
  absolute: boolean;
}

/**
 * The files only git can tell a git command rewrites (`git reset --hard`, a branch switched to, `git clean -fd`), as
 * the hook asks git for them from the repository's top: `diff`, the revisions `git diff --name-only` compares; or
 * `untracked`, the untracked files `git ls-files --others` lists (`ignored`: those git ignores too, or `only` them).
 * No file to read: `file` is ''.
 */
export interface GitInput {
  kind: 'git';
  file: string;
  diff?: string[];
  untracked?: 'standard' | 'ignored' | 'only-ignored';
}

export type ShellInput = PatchInput | ArchiveInput | PackageInput | ScriptInput | GitInput;

/**
 * The files an input makes its command write, named from where the command runs: a patch's from its text, an
 * archive's from its members' names (none when they could not be read: {@link unreadFolders}); a package manager's in
 * the package's folder.
 */
export function inputTargets(input: ShellInput, read: string | readonly string[] | undefined): string[] {
  // A package's files are in the folder the hook found its manifest in (`read`), else where the command works.
  if (input.kind === 'package') {
    const root = typeof read === 'string' ? read : input.file;
    return input.writes.map((w) => inFolder(root === '' ? undefined : root, w));
  }
  // A script file is read where it is placed (placedTargets): a shell script's writes need the folders it goes to.
  if (input.kind === 'script') return [];
  // The names git listed, from the repository's top (where the hook runs it).
  if (input.kind === 'git') return Array.isArray(read) ? [...read] : [];
  if (input.kind === 'patch') {
    const text = input.text ?? read;
    return typeof text === 'string' ? [...new Set(diffFiles([text], input.strip).map((f) => inFolder(input.root, f)))] : [];
  }
  if (read === undefined || typeof read === 'string') return [];
  // Members named pick what is extracted; a word taken for one that names none (an option's value, a pattern) picks
  // nothing here, and every member is judged.
  const picks =
    input.members.length > 0 &&
    input.members.every((m) => !/[*?[]/.test(m)) &&
    input.members.every((m) => read.some((name) => underMember(name, m)));
  const out: string[] = [];
  for (const name of read) {
    if (picks && !input.members.some((m) => underMember(name, m))) continue;
    // Both programs take a name's leading `/` off unless told not to (`tar -P`, `unzip -:`); unzip takes each `../`
    // off too, and reads `\` as a folder's end in a name written on Windows.
    const path = input.absolute ? name : name.replace(/^\/+/, '');
    const spellings = input.program === 'unzip' && path.includes('\\') ? [path, path.replaceAll('\\', '/')] : [path];
    for (let spelled of spellings) {
      if (input.program === 'unzip' && !input.absolute) spelled = spelled.replace(/(^|\/)(?:\.\.\/)+/g, '$1');
      const parts = spelled.split('/').slice(input.strip);
      if (parts.join('') === '') continue;
      const file = input.flat ? basename(spelled) : parts.join('/');
      for (const dir of input.into.length > 0 ? input.into : ['']) out.push(inFolder(dir === '' ? undefined : dir, file));
    }
  }
  return [...new Set(out)];
}

/**
 * The folders an archive whose names could not be read (not there yet, read from the input, another compression) is
 * extracted into, named from where the command runs ('.' for there): files of names unknown are written below each.
 * A patch that could not be read is none: what it would change, the hook does not judge (docs/guard.md).
 */
export function unreadFolders(input: ShellInput): string[] {
  if (input.kind !== 'archive') return [];
  return input.into.length === 0 ? ['.'] : input.into.map((d) => (d === '' ? '.' : d));
}

/** Whether the member `name` is `member` or below it, as a name given on the command line picks members. */
function underMember(name: string, member: string): boolean {
  const m = member.replace(/\/+$/, '').replace(/^\.\//, '');
  const n = name.replace(/^\.\//, '');
  return n === m || n.startsWith(`${m}/`);
}

const isOption = (w: string) => w.length > 1 && w.startsWith('-');

/** tar's short options that take a value, and its long ones that take the next word when not given one with `=`. */
const TAR_VALUED = /[bCfFgHIKLNTVX]/;
const TAR_LONG_VALUED =
  /^--(?:file|directory|strip-components|exclude|exclude-from|files-from|transform|xform|owner|group|mode|use-compress-program|format|label|newer|newer-mtime|after-date|index-file|blocking-factor|record-size|tape-length|info-script|new-volume-script|volno-file|rsh-command|rmt-command|suffix|mtime|listed-incremental|starting-file)$/;

/**
 * The archive `tar` extracts (`-x`, `x` in the old style's first word, `--extract`, `--get`) and where: none when it
 * only lists, creates, or extracts to its output (`-O`). An archive from the input (`-f -`, or none named) is ''.
 */
export function tarInput(args: readonly string[], jar = false): ArchiveInput | undefined {
  // `jar xf a.jar` reads as tar's letters; its archive is a zip, whose names are read as unzip reads them.
  const program = jar ? 'unzip' : 'tar';
  const input: ArchiveInput = { kind: 'archive', file: '', program, into: [], members: [], strip: 0, flat: false, absolute: false };
  let [extract, stdout] = [false, false];
  const take = (option: string, value: string) => {
    if (option === 'f' || option === '--file') input.file = value;
    else if (option === 'C' || option === '--directory') input.into.push(value);
    else if (option === '--strip-components') input.strip = Number.parseInt(value, 10) || 0;
    else if (option === '--to-command') stdout = true;
  };
  const flag = (option: string) => {
    if (option === 'x' || option === '--extract' || option === '--get') extract = true;
    else if (option === 'O' || option === '--to-stdout' || option === '--to-command') stdout = true;
    else if (option === 'P' || option === '--absolute-names') input.absolute = true;
  };
  let i = 0;
  // The old style (`tar xzf a.tgz -C d`): a first word of letters, each letter's value taken from the words after it.
  if (args[0] !== undefined && !args[0].startsWith('-')) {
    const letters = args[0];
    i = 1;
    for (const letter of letters) {
      if (TAR_VALUED.test(letter)) take(letter, args[i++] ?? '');
      else flag(letter);
    }
  }
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      input.members.push(...args.slice(i + 1));
      break;
    }
    const long = /^(--[^=]+)(?:=(.*))?$/.exec(a);
    if (long) {
      if (long[2] !== undefined) take(long[1]!, long[2]);
      else if (TAR_LONG_VALUED.test(a)) take(a, args[++i] ?? '');
      else flag(a);
    } else if (isOption(a))
      for (let k = 1; k < a.length; k++) {
        const letter = a[k]!;
        if (!TAR_VALUED.test(letter)) {
          flag(letter);
          continue;
        }
        take(letter, k + 1 < a.length ? a.slice(k + 1) : (args[++i] ?? ''));
        break;
      }
    else input.members.push(a);
  }
  if (!extract || stdout) return undefined;
  // Names renamed on the way out (`--transform`, bsdtar's `-s /a/b/`) or put in a folder of the archive's name
  // (`--one-top-level`) are not the archive's: which files it writes, the hook cannot tell.
  const renamed = args.some(
    (a, i) => /^--(?:transform|xform|one-top-level)(?:=|$)/.test(a) || (a === '-s' && /^[^\w\s-]/.test(args[i + 1] ?? '')),
  );
  if (renamed) return { ...input, file: '', members: [] };
  if (input.file === '-') input.file = '';
  return input;
}

/**
 * The archive `unzip` extracts and where (`-d DIR`, anywhere after it too): none when it lists, tests or prints
 * (`-l`, `-t`, `-v`, `-z`, `-p`, `-c`, `-Z`). The members named after the archive, up to `-x`, are those it extracts.
 */
export function unzipInput(args: readonly string[]): ArchiveInput | undefined {
  const input: ArchiveInput = {
    kind: 'archive',
    file: '',
    program: 'unzip',
    into: [],
    members: [],
    strip: 0,
    flat: false,
    absolute: false,
  };
  let excluding = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-d') input.into.push(args[++i] ?? '');
    else if (a.startsWith('-d') && a.length > 2) input.into.push(a.slice(2));
    else if (a === '-x') excluding = true;
    else if (/^-[PIO]$/.test(a)) i++;
    else if (isOption(a)) {
      if (/^-[a-zA-Z:]*[ltvzpcZ]/.test(a)) return undefined;
      if (/^-[a-zA-Z:]*j/.test(a)) input.flat = true;
      // `-:` keeps a name's `../` and leading `/`.
      if (/^-[a-zA-Z]*:/.test(a)) input.absolute = true;
    } else if (input.file === '') input.file = a;
    else if (!excluding) input.members.push(a);
  }
  return input.file === '' ? undefined : input;
}

/**
 * The archive 7-Zip extracts (`7z x`, or `7z e`, which drops the folders) and where (`-oDIR`); the archive `7z a`,
 * `u` or `d` writes is put in `w`'s paths. Its names are read as unzip's, when the archive is a zip or a tar.
 */
export function sevenZipInput(args: readonly string[], w: { paths: string[] }): ArchiveInput | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  const [command, file, ...members] = words;
  if (command === 'a' || command === 'u' || command === 'd') {
    if (file !== undefined) w.paths.push(file);
    return undefined;
  }
  if ((command !== 'x' && command !== 'e') || file === undefined) return undefined;
  const into = args.filter((a) => /^-o./.test(a)).map((a) => a.slice(2));
  return { kind: 'archive', file, program: 'unzip', into, members, strip: 0, flat: command === 'e', absolute: false };
}

/** A compressor's suffix, whether it decompresses by its name, and whether it keeps the file it reads unless told. */
const COMPRESSORS: Record<string, { suffix: string; decompress: boolean; keeps: boolean }> = {
  gzip: { suffix: '.gz', decompress: false, keeps: false },
  gunzip: { suffix: '.gz', decompress: true, keeps: false },
  bzip2: { suffix: '.bz2', decompress: false, keeps: false },
  bunzip2: { suffix: '.bz2', decompress: true, keeps: false },
  xz: { suffix: '.xz', decompress: false, keeps: false },
  unxz: { suffix: '.xz', decompress: true, keeps: false },
  lzma: { suffix: '.lzma', decompress: false, keeps: false },
  unlzma: { suffix: '.lzma', decompress: true, keeps: false },
  zstd: { suffix: '.zst', decompress: false, keeps: true },
  unzstd: { suffix: '.zst', decompress: true, keeps: true },
};

/** The name a compressed file is decompressed to: its suffix off (`.tgz` is a `.tar`); none when it has no suffix it knows. */
function decompressed(file: string, suffix: string): string | undefined {
  const tar = /\.(?:tgz|taz|tbz2?|txz|tzst)$/.exec(file);
  if (tar) return `${file.slice(0, tar.index)}.tar`;
  return file.endsWith(suffix) && file.length > suffix.length ? file.slice(0, -suffix.length) : undefined;
}

/**
 * The files a compressor writes and takes away (`gzip a` writes `a.gz` and deletes `a`; `gunzip a.gz` the other way;
 * `-k` keeps the file it reads, `-c` writes only its output). A folder with `-r` stands for every file below it,
 * each replaced. Undefined for a program that is no compressor.
 */
export function compressed(name: string, args: readonly string[]): { paths: string[]; removes: string[] } | undefined {
  const known = Object.hasOwn(COMPRESSORS, name) ? COMPRESSORS[name] : undefined;
  if (known === undefined) return undefined;
  const out = { paths: [] as string[], removes: [] as string[] };
  const has = (letter: string, long: RegExp) => args.some((a) => long.test(a) || (/^-[a-zA-Z0-9]+$/.test(a) && a.includes(letter)));
  if (has('c', /^--(?:stdout|to-stdout)$/) || has('t', /^--test$/) || has('l', /^--list$/)) return out;
  const decompress = known.decompress || has('d', /^--(?:decompress|uncompress)$/);
  const keep = args.includes('--rm') ? false : known.keeps || has('k', /^--keep$/);
  let suffix = known.suffix;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-S' || a === '--suffix') suffix = args[++i] ?? suffix;
    else if (a.startsWith('--suffix=')) suffix = a.slice(9);
    else if (a === '-o' && name.endsWith('zstd')) out.paths.push(args[++i] ?? '');
    else if (a === '--') files.push(...args.slice(i + 1));
    else if (!isOption(a)) files.push(a);
    if (a === '--') break;
  }
  const recursive = has('r', /^--recursive$/);
  for (const file of files) {
    if (recursive) out.removes.push(file);
    const made = decompress ? decompressed(file, suffix) : `${file}${suffix}`;
    if (made === undefined) continue;
    out.paths.push(made);
    if (!keep) out.paths.push(file);
  }
  out.paths.push(...out.removes);
  return out;
}
