/**
 * What the programs that copy, move or link files write (`cp`, `mv`, `install`, `rsync`, `scp`, `ln`), as far as their
 * words tell (docs/guard.md, "Shell commands"): the destination, and each source's name in it. Pure.
 */
import { basename } from './guard-shell-lex.ts';
import { operands } from './guard-shell-words.ts';

/** Where a copy's writes go: as ShellWrites' fields of the same names. */
export interface CopyWrites {
  paths: string[];
  made: string[];
  moves: Array<{ from: string; to: string; copy?: true }>;
  links: Array<{ name: string; target: string }>;
}

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

/** What `name ARGS` (a copying, moving or linking program) writes, into `w`. */
export function copied(name: string, args: readonly string[], w: CopyWrites): void {
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
}
