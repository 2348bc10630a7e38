/**
 * The files a git command writes in the working tree, as far as its text tells (docs/guard.md, "Shell commands"):
 * what `git checkout -- FILE`, `git restore`, `git stash push FILE` and `git clean -f` put back or delete, the patch
 * files `git apply` and `git am` read, and the files the hook asks git for where only git can tell (`git reset --hard`,
 * a branch switched to, a stash popped, a commit picked or merged). Pure.
 */
import { stripLevel } from './guard-shell-diff.ts';
import type { PatchInput, ShellInput } from './guard-shell-inputs.ts';
import { basename, type Simple } from './guard-shell-lex.ts';
import { given, isOption, operands, optionValue, program, writtenKey } from './guard-shell-words.ts';

/** Where a git command's writes go: as {@link ShellWrites}, with the texts the script put in files. */
export interface GitWrites {
  paths: string[];
  removes: string[];
  inputs: ShellInput[];
  written: ReadonlyMap<string, string>;
}

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

/**
 * The patch files a command reads: those `named`, else the file its input is redirected from (`< fix.diff`) or that
 * `cat` pipes to it. A file the script itself wrote from a here-document is read from that text; any other is left
 * for the hook to read.
 */
export function patchFiles(cmd: Simple, named: readonly string[], patch: Omit<PatchInput, 'kind' | 'file'>, w: GitWrites): void {
  let files = named;
  if (files.length === 0 && cmd.readFrom !== undefined) files = cmd.readFrom;
  const source = cmd.input === undefined ? [] : program(cmd.input.words, []);
  if (files.length === 0 && basename(source[0] ?? '') === 'cat') files = operands(source.slice(1));
  for (const file of files) {
    const text = w.written.get(writtenKey(file));
    w.inputs.push({ kind: 'patch', file, ...patch, ...(text === undefined ? {} : { text }) });
  }
}

/**
 * The files `git apply` changes from its patch files, or a patch on its input (no file named, or `-`), `-p1`
 * unless told, named from the repository's top and from where it runs: none with `--cached` alone (the index), or
 * when it only reports (`--check`, `--stat`, `--numstat`, `--summary`).
 */
function applied(cmd: Simple, args: readonly string[], w: GitWrites): void {
  const reports = args.some((a) => /^--(?:check|stat|numstat|summary)$/.test(a)) && !args.includes('--apply');
  if (reports || (args.includes('--cached') && !args.includes('--index'))) return;
  const root = optionValue(args, /^--directory$/, /^--directory=(.*)$/);
  const patch = { strip: stripLevel(args) ?? 1, ...(root === undefined ? {} : { root }), fromTop: true as const };
  const files = operands(args, /^-p$|^--directory$|^--exclude$|^--include$|^-C$/).filter((a) => a !== '-');
  if (files.length === 0) for (const text of given(cmd)) w.inputs.push({ kind: 'patch', file: '', ...patch, text });
  patchFiles(cmd, files, patch, w);
}

/**
 * The revisions `git diff --name-only` compares to list the files a git command rewrites that its text does not name
 * (each list one diff, read from the repository's top): `reset --hard [REV]` the files that differ from REV; a
 * branch or commit switched to (`checkout X`, `switch X`) those that differ between HEAD and it; `stash pop|apply`
 * the stash's; `cherry-pick C`, `revert C` the commit's; `merge X`, `rebase X`, `pull` what X changed since it
 * parted from HEAD. None for a word git would take for an option.
 */
function askedRevisions(sub: string, args: readonly string[]): string[][] {
  const revs = (valued?: RegExp) => operands(args, valued).filter((r) => r !== '' && !r.startsWith('-'));
  const dashes = args.includes('--');
  switch (sub) {
    case 'reset':
      return args.some((a) => /^--(?:hard|merge|keep)$/.test(a)) && !dashes ? [[revs()[0] ?? 'HEAD']] : [];
    case 'checkout':
    case 'switch': {
      // One operand and no `--`: a branch or commit to switch to (or, for checkout, a path put back, which git's
      // diff from HEAD names too).
      // `-` alone is the branch checked out before (`@{-1}`).
      const valued = /^-[bBcC]$|^--(?:orphan|conflict|pathspec-from-file|create|force-create)$/;
      const named = operands(args, valued).includes('-') ? ['@{-1}'] : revs(valued);
      return named.length === 1 && !dashes ? [['HEAD', named[0]!]] : [];
    }
    case 'stash': {
      // A stash of every change (`git stash`, `push` or `save` with no path) puts each changed file back as HEAD has it.
      if (args[0] === undefined || /^(?:push|save)$/.test(args[0]) || args[0].startsWith('-'))
        return restored('stash', args).length === 0 && !dashes ? [['HEAD']] : [];
      if (args[0] !== 'pop' && args[0] !== 'apply') return [];
      const stash = revs().slice(1)[0] ?? 'stash@{0}';
      return [[`${stash}^1`, stash]];
    }
    case 'cherry-pick':
    case 'revert':
      return revs(/^-[mS]$|^--(?:mainline|strategy|strategy-option|gpg-sign)$/)
        .filter((c) => !c.includes('..'))
        .slice(0, 100)
        .map((c) => [`${c}^`, c]);
    case 'merge':
    case 'rebase':
      return revs(/^-[mFsXS]$|^--(?:message|file|strategy|strategy-option|onto|exec|gpg-sign)$/)
        .slice(0, 1)
        .map((x) => [`HEAD...${x}`]);
    case 'pull': {
      const [remote, branch] = revs(/^-[sX]$|^--(?:strategy|strategy-option|depth|upload-pack)$/);
      return [[remote !== undefined && branch !== undefined ? `HEAD...${remote}/${branch}` : 'HEAD...@{upstream}']];
    }
    default:
      return [];
  }
}

/**
 * What `git ARGS` writes, into `w`; `git mv` and `git rm` are put in `runs`, read as `mv` and `rm` are.
 */
export function gitWrites(cmd: Simple, args: readonly string[], w: GitWrites, runs: Simple[]): void {
  // `git mv` and `git rm` move and delete as `mv` and `rm` do, after git's own options (`-C DIR`, `-c KEY=VALUE`).
  let k = 0;
  while (k < args.length && isOption(args[k]!)) k += /^-[Cc]$/.test(args[k]!) ? 2 : 1;
  const sub = args[k] ?? '';
  const rest = args.slice(k + 1);
  if (sub === 'mv' || sub === 'rm') runs.push({ words: args.slice(k), redirected: [], heredocs: [] });
  else if (sub === 'apply') applied(cmd, rest, w);
  // `git am` applies the patches of mailboxes (or its input), their names from the repository's top.
  else if (sub === 'am' && !rest.some((a) => /^--(?:abort|skip|quit|show-current-patch)/.test(a)))
    patchFiles(cmd, operands(rest, /^-[pC]$|^--directory$/), { strip: stripLevel(rest) ?? 1, fromTop: true }, w);
  else if (sub === 'checkout' || sub === 'restore' || sub === 'stash' || sub === 'clean') {
    // A folder put back rewrites files below it, as a folder deleted takes every one of them away.
    const files = restored(sub, rest);
    w.paths.push(...files);
    w.removes.push(...files);
  }
  for (const diff of askedRevisions(sub, rest)) w.inputs.push({ kind: 'git', file: '', diff });
  // `git clean -f` with no path deletes untracked files git lists: the ignored ones too with `-x`, only them with `-X`.
  if (sub === 'clean' && restored('clean', rest).length === 0 && rest.some((a) => /^-[a-zA-Z]*f|^--force$/.test(a))) {
    if (rest.some((a) => /^-[a-zA-Z]*n|^--dry-run$/.test(a))) return;
    const ignored = rest.some((a) => /^-[a-zA-Z]*X/.test(a))
      ? 'only-ignored'
      : rest.some((a) => /^-[a-zA-Z]*x/.test(a))
        ? 'ignored'
        : 'standard';
    w.inputs.push({ kind: 'git', file: '', untracked: ignored });
  }
}
