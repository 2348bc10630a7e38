import { accessSync, chmodSync, constants, existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { AgentsError, UsageError } from '../core/errors.ts';
import { yamlScalar } from '../core/export-front-matter.ts';
import { notAnOption, shellQuote } from '../core/shell-word.ts';
import { namedRepositoryHint } from '../git/caller-env.ts';
import { gitCommonDir } from '../git/extends.ts';
import { indexGitlinksAmong } from '../git/gitlinks.ts';
import { GitError, hooksDir, topLevel } from '../git/repo.ts';
import { readRegularFile } from './read-file.ts';
import { writeFailure, writeFileAtomic } from './atomic-write.ts';
import pkg from '../../package.json' with { type: 'json' };
import { docsRef } from '../core/docs-link.ts';
import { eolOfFile } from '../core/file-style.ts';
import type { PreCommitHookId } from '../core/pre-commit-config.ts';

/**
 * How the hook says to install the command it did not find: from the repository at
 * this version's tag, as the README installs it (the package is not on the npm
 * registry, where `npm install -g agents-invariants` would find nothing).
 */
const INSTALL = `npm install --save-dev github:agents-invariants/agents#v${pkg.version}`;

/** Marks a hook as ours, so `init --hooks` may update it and never touches anyone else's. */
export const HOOK_MARKER = '# agents-pre-commit-hook';

/**
 * The copies of the command the hook tries before one on PATH, nearest the store first: the `node_modules/.bin/agents`
 * of each folder from the store's up to the repository's top, as Node.js resolves a package from the store's folder
 * (a monorepo whose package holding the store pins its own copy). `storeArg` is the store's path from the top.
 */
function pinnedCommands(storeArg: string | undefined): string[] {
  const parts = storeArg === undefined || storeArg.startsWith('../') || storeArg.startsWith('/') ? [] : storeArg.split('/').slice(0, -1);
  const folders = parts.map((_p, i) => parts.slice(0, parts.length - i).join('/'));
  return [...folders.map((f) => shellQuote(`${f}/node_modules/.bin/agents`)), 'node_modules/.bin/agents'];
}

/** The store's option as a hook gives it, from the repository's top (`storeArg`: none for `.agents`, the default). */
function storeOption(storeArg: string | undefined): string {
  return storeArg ? ` --store ${shellQuote(notAnOption(storeArg))}` : '';
}

/**
 * The ` --store DIR` a hook run at the repository's top `top` gives the store at `storeRoot` (the pre-commit hook, an
 * agent client's guard hook): its path from the top, or '' for `.agents`, which the hook finds unnamed.
 */
export function hookStoreOption(top: string, storeRoot: string): string {
  return storeOption(storeArgOf(top, storeRoot));
}

/** `storeRoot` as a hook names it: its path from the repository's top, or undefined for `.agents` (found unnamed). */
function storeArgOf(top: string, storeRoot: string): string | undefined {
  const rel = relative(top, storeRoot).split(sep).join('/');
  return rel === '.agents' ? undefined : rel;
}

/**
 * The check a person adds to a hook of their own, as the hook this tool writes runs it: given the store when it is
 * not `.agents`, since the hook runs at the repository's top and a bare `agents validate --staged` finds another store or none.
 */
function hookCheck(storeArg: string | undefined): string {
  return `\`${hookCommands(storeArg, false)[0]}\``;
}

/**
 * A word of a YAML flow list (`args: [--store, WORD]`): the front matter's scalar (so `2024` or `true`, which pre-commit
 * would read as no string, is quoted), quoted as well when it holds a flow list's own `,[]{}`.
 */
function yamlFlowWord(word: string): string {
  return /[,[\]{}]/.test(word) ? JSON.stringify(word) : yamlScalar(word);
}

/** The commands the hook runs at the repository's top, as a person would type them there: validate's, and export's check. */
function hookCommands(storeArg: string | undefined, exportCheck: boolean): string[] {
  const store = storeOption(storeArg);
  return [`agents validate --staged${store}`, ...(exportCheck ? [`agents export --check${store}`] : [])];
}

/**
 * The plain `.git/hooks/pre-commit` script: validates what is staged and,
 * with `exportCheck`, then checks the agents' instruction files `agents
 * export` writes (docs/export.md). The repository's own copy of the command
 * runs before one on PATH, so that every clone checks with the version it pins.
 */
export function preCommitScript(storeArg: string | undefined, exportCheck = false): string {
  const store = storeOption(storeArg);
  const args = `validate --staged${store}`;
  const pinned = pinnedCommands(storeArg);
  if (exportCheck) {
    return [
      '#!/bin/sh',
      HOOK_MARKER,
      '# Validates the invariants staged for this commit, then checks that the files `agents export`',
      '# writes (AGENTS.md, CLAUDE.md, …) are up to date; installed by `agents init --hooks --export-check`.',
      '# Skip once with `git commit --no-verify`; delete this file to remove the hook.',
      ...pinned.flatMap((c, i) => [`${i === 0 ? 'if' : 'elif'} [ -x ${c} ]; then`, `  AGENTS=${c}`]),
      'elif command -v agents >/dev/null 2>&1; then',
      '  AGENTS=agents',
      'else',
      `  echo "pre-commit: the agents command was not found; install it in this repository (${INSTALL}) or remove $0" >&2`,
      '  exit 1',
      'fi',
      `"$AGENTS" ${args} || exit 1`,
      // Where there is no store (a branch from before it, the commit that removes it) validate passed in silence, and
      // there is nothing the export could be out of step with: export --check would stop there with no store found.
      `[ -d ${shellQuote(storeArg ?? '.agents')} ] || exit 0`,
      `exec "$AGENTS" export --check${store}`,
      '',
    ].join('\n');
  }
  return [
    '#!/bin/sh',
    HOOK_MARKER,
    '# Validates the invariants staged for this commit; installed by `agents init --hooks`.',
    '# Skip once with `git commit --no-verify`; delete this file to remove the hook.',
    ...pinned.flatMap((c, i) => [`${i === 0 ? 'if' : 'elif'} [ -x ${c} ]; then`, `  exec ${c} ${args}`]),
    'elif command -v agents >/dev/null 2>&1; then',
    `  exec agents ${args}`,
    'fi',
    `echo "pre-commit: the agents command was not found; install it in this repository (${INSTALL}) or remove $0" >&2`,
    'exit 1',
    '',
  ].join('\n');
}

/**
 * The plain `.git/hooks/pre-merge-commit` script: git commits a merge it made itself (`git merge`, `git pull`) without
 * running the pre-commit hook, so a merge of two branches that each pass (the same text added to one scope on both)
 * would record a store that fails; this runs the pre-commit hook beside it on the merge's index, as git's own sample
 * does, so the two never check differently.
 */
export function preMergeCommitScript(): string {
  return [
    '#!/bin/sh',
    HOOK_MARKER,
    '# Runs the pre-commit hook beside it for a merge git commits itself (git merge, git pull), which runs no',
    '# pre-commit hook; installed by `agents init --hooks`. Skip once with `git merge --no-verify`.',
    'hook="$(dirname "$0")/pre-commit"',
    '[ -x "$hook" ] || exit 0',
    'exec "$hook"',
    '',
  ].join('\n');
}

/** The largest existing hook read (ours is a few hundred bytes). */
const MAX_HOOK_BYTES = 1024 * 1024;

export interface HookInstall {
  path: string;
  /**
   * "installed", or "updated" when an earlier agents hook was replaced; "kept" when the hook is a manager's whose config
   * already runs the check (the pre-commit framework's, `agents-validate` in `.pre-commit-config.yaml`): left alone.
   */
  action: 'installed' | 'updated' | 'unchanged' | 'kept';
  /**
   * The pre-merge-commit hook beside it; `kept` when one agents did not write is there, left alone. Null when the
   * pre-commit hook is kept: the manager that writes it owns the hooks beside it too.
   */
  merge: { path: string; action: 'installed' | 'updated' | 'unchanged' | 'kept' } | null;
  /** The config the kept hook's manager runs the check from (`.pre-commit-config.yaml`), when it is kept. */
  config?: string;
  /** The `.gitattributes` written or added to beside hooks in a folder of the working tree (core.hooksPath), if any. */
  attributes: string | null;
  /**
   * The commands the hook runs, from the repository's top, with the store's `--store` when it is not `.agents`: what
   * it says it runs, and the check to add to a pre-merge-commit hook it did not write.
   */
  runs: string[];
}

/**
 * What a `.gitattributes` beside hooks git tracks says of them: LF in every checkout. Turned into CRLF (core.autocrlf),
 * a script's first line names `sh\r`, which no system runs, and core.safecrlf refuses to add it as written.
 */
const HOOK_ATTRIBUTES = ['.gitattributes text eol=lf', 'pre-commit text eol=lf', 'pre-merge-commit text eol=lf'];

/**
 * The repository's top folder and the folder git runs hooks from, refusing
 * (exit 2) a hooks folder outside the repository: `core.hooksPath` set
 * globally to a shared folder would make every repository run this store's
 * hook, and fail its commits. Called before anything is written.
 */
export async function hookTarget(storeRoot: string): Promise<{ top: string; dir: string; tracked: boolean }> {
  let top: string;
  let dir: string;
  let common: string;
  // Before `init` makes the store its folder (and its parents) may not exist yet: git runs in the nearest that does.
  let from = storeRoot;
  while (!existsSync(from) && dirname(from) !== from) from = dirname(from);
  try {
    top = await topLevel(from);
    dir = await hooksDir(from);
    common = await gitCommonDir(top);
  } catch (error) {
    // The store's folder is what must be in a repository: the nearest folder that exists is only where git ran.
    if (error instanceof GitError && error.kind === 'not-a-repo')
      throw new UsageError(
        `--hooks needs the store in a git repository: ${storeRoot} is in none`,
        `Nothing was written. ${namedRepositoryHint() ?? 'Run `git init` first (where the store belongs), or give --store a folder inside the git repository whose commits the hook is to check.'}`,
        undefined,
        'not-a-repository',
      );
    if (error instanceof GitError)
      throw new UsageError(
        `--hooks needs a git repository: ${error.message}`,
        `Run \`git init\` first, or use the pre-commit framework (see ${docsRef('validation.md')}).`,
      );
    throw error;
  }
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const within = (inner: string, outer: string) => {
    const rel = relative(real(outer), real(inner));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  if (!within(dir, top) && !within(dir, common))
    throw new UsageError(
      `git runs hooks from ${dir} (core.hooksPath), which is outside this repository; agents writes no hook there`,
      `Nothing was written. A hook in a shared folder runs for every repository that uses it. Add ${hookCheck(storeArgOf(top, storeRoot))} to ${join(dir, 'pre-commit')} yourself, set core.hooksPath for this repository only (\`git config core.hooksPath .git/hooks\`), or use the pre-commit framework (${docsRef('validation.md')}).`,
      { hooks_path: dir },
      'hooks-outside-repository',
    );
  const tracked = !within(dir, common);
  const nested = tracked ? nestedRepository(real(top), real(dir)) : undefined;
  if (nested !== undefined)
    throw new UsageError(
      `git runs hooks from ${dir} (core.hooksPath), which is inside ${nested}, a repository of its own (a submodule, checked out or not, or a clone inside this one); agents writes no hook there`,
      `Nothing was written. A hook written there is not this repository's, and no commit of it holds it. Set core.hooksPath to a folder of this repository (\`git config core.hooksPath .githooks\`), or unset it (\`git config --unset core.hooksPath\`).`,
      { hooks_path: dir },
      'hooks-outside-repository',
    );
  // A hooks folder of the working tree (core.hooksPath .githooks) is one git may commit, and check out again.
  return { top, dir, tracked };
}

/**
 * The folder on the way from `top` to `dir` (inside it) that is a repository of its own, from `top`: one holding
 * `.git`, or one git's index holds as a gitlink (a submodule not checked out, its folder there or not, with or
 * without a line of .gitmodules); undefined when none is.
 */
function nestedRepository(top: string, dir: string): string | undefined {
  const way: string[] = [];
  for (const part of relative(top, dir)
    .split(sep)
    .filter((p) => p !== ''))
    way.push(way.length === 0 ? part : `${way.at(-1)}/${part}`);
  const checkedOut = way.find((f) => existsSync(join(top, f, '.git')));
  if (checkedOut !== undefined) return checkedOut;
  if (way.length === 0) return undefined;
  const links = indexGitlinksAmong(top, way);
  return way.find((f) => links.has(f));
}

/** A pre-commit hook checked and ready to be written: `planPreCommitHook`, then `writePreCommitHook`. */
export interface HookPlan extends HookInstall {
  dir: string;
  mergeScript: string;
  script: string;
  /** Whether the hook runs `agents export --check` too. */
  exportCheck: boolean;
  /** The new text of the `.gitattributes` beside the hooks, when it lacks a line of HOOK_ATTRIBUTES. */
  attributesText?: string;
}

/**
 * The plain git pre-commit hook for the store at `storeRoot`, checked with nothing written: it refuses another
 * tool's hook (never overwritten), one that cannot be read, a hooks folder outside the repository or one this user
 * cannot write in. `init --hooks` asks before it makes the store, so a refusal leaves no store behind a message
 * that says nothing was changed.
 */
export async function planPreCommitHook(storeRoot: string, wanted?: boolean): Promise<HookPlan> {
  const { top, dir, tracked } = await hookTarget(storeRoot);
  const storeArg = storeArgOf(top, storeRoot);
  let exportCheck = wanted ?? false;
  let script = preCommitScript(storeArg, exportCheck);
  const path = join(dir, 'pre-commit');
  let action: HookInstall['action'] = 'installed';
  // A hook may be a link (hook managers link them); what it leads to must be a regular file of sensible size.
  const existing = readRegularFile(path, MAX_HOOK_BYTES, { followLinks: true });
  if (!existing.ok && existing.code !== 'missing') {
    throw new UsageError(
      `the pre-commit hook ${path} ${existing.message}; it was left alone`,
      // The rerun is made with the run's --store: pasted bare, `init --hooks` would make a store at the default place.
      (agents) => `Nothing was changed. Remove or repair that file, then run \`${agents} init --hooks\` again.`,
    );
  }
  if (existing.ok) {
    const current = existing.bytes.toString('utf8');
    if (!current.includes(HOOK_MARKER)) {
      const to = hookToEdit(top, dir, path, current, storeArg);
      const { edit, by } = to;
      let add: string;
      if (!('add' in to)) {
        // The framework's config may run the check already: then there is nothing to add, and the hook is kept.
        const framework = await preCommitFramework(edit, storeArg, wanted === true);
        if (framework.missing.length === 0)
          return {
            path,
            action: 'kept',
            merge: null,
            attributes: null,
            config: edit,
            runs: hookCommands(storeArg, framework.exportCheck),
            dir,
            script: current,
            exportCheck: framework.exportCheck,
            mergeScript: preMergeCommitScript(),
            attributesText: undefined,
          };
        add = framework.add;
      } else add = to.add;
      throw new UsageError(
        `a pre-commit hook that agents did not install already exists: ${path}${by ? ` (${by}'s)` : ''}`,
        // A hook manager's hook is rewritten from its config, which is the way to add ours; switching managers is none.
        `Nothing was changed. Add ${add} to ${edit} yourself${by ? ` (${by} writes ${path} again at each install; see` : ', or use the pre-commit framework or husky (see'} ${docsRef('validation.md')}).`,
        { path, edit },
        'foreign-hook',
      );
    }
    // Run again without the flag, an update keeps the export check a hook of ours has; --no-export-check takes it out.
    if (wanted === undefined && current.includes(' export --check')) {
      exportCheck = true;
      script = preCommitScript(storeArg, true);
    }
    if (current === script) action = 'unchanged';
    else action = 'updated';
  }
  const merge = planMergeHook(dir);
  const attributesText = tracked ? hookAttributes(dir) : undefined;
  const attributes = attributesText === undefined ? null : join(dir, '.gitattributes');
  const ready = {
    path,
    action,
    merge,
    attributes,
    runs: hookCommands(storeArg, exportCheck),
    dir,
    script,
    exportCheck,
    mergeScript: preMergeCommitScript(),
    attributesText,
  };
  if (action === 'unchanged' && merge.action !== 'installed' && merge.action !== 'updated' && attributesText === undefined) return ready;
  // The nearest folder that exists must take the hook's temporary (hooks/ itself may be made).
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
  } catch (error) {
    const failure = writeFailure(error, path);
    throw new AgentsError(failure.message, failure.exitCode, {
      hint: `Nothing was changed. Make ${at} writable, or leave out --hooks.`,
      code: failure.code,
    });
  }
  return ready;
}

/**
 * The text of the `.gitattributes` in the hooks folder `dir` with the lines of HOOK_ATTRIBUTES it lacks added after
 * what it holds (a file of its own is kept, never rewritten); undefined when it has them all, or is no file to add to.
 */
function hookAttributes(dir: string): string | undefined {
  const read = readRegularFile(join(dir, '.gitattributes'), MAX_HOOK_BYTES);
  // One that is no regular file (a link, a folder) or cannot be read is the owner's to mend: never replaced.
  if (!read.ok && read.code !== 'missing') return undefined;
  const current = read.ok ? read.bytes.toString('utf8') : '';
  const lines = new Set(current.split(/\r?\n/).map((l) => l.trim()));
  const missing = HOOK_ATTRIBUTES.filter((l) => !lines.has(l));
  if (missing.length === 0) return undefined;
  const sep = current === '' || current.endsWith('\n') ? '' : '\n';
  const added = `${sep}# Written by \`agents init --hooks\`: its hooks keep LF line ends in every checkout, as sh reads them.\n${missing.join('\n')}\n`;
  // In the line ends the file has most of, as every writer takes them, so that its own lines are the only change.
  return `${current}${eolOfFile(current)(added)}`;
}

/**
 * What `init --hooks` does to the pre-merge-commit hook in `dir`: install it, update or keep one of ours, and leave
 * one of another origin (or one that cannot be read) alone, said as `kept`, since the pre-commit hook is installed
 * either way.
 */
function planMergeHook(dir: string): NonNullable<HookInstall['merge']> {
  const path = join(dir, 'pre-merge-commit');
  const existing = readRegularFile(path, MAX_HOOK_BYTES, { followLinks: true });
  if (!existing.ok) return { path, action: existing.code === 'missing' ? 'installed' : 'kept' };
  const current = existing.bytes.toString('utf8');
  if (!current.includes(HOOK_MARKER)) return { path, action: 'kept' };
  return { path, action: current === preMergeCommitScript() ? 'unchanged' : 'updated' };
}

/**
 * The file a person edits to add the check to the pre-commit hook at `path`, and what to add: the hook itself, or
 * the file a hook manager writes it from, since the manager writes its hook again (and git ignores husky's): husky
 * 9's `.husky/pre-commit` (core.hooksPath `.husky/_`), the pre-commit framework's `.pre-commit-config.yaml`,
 * lefthook's `lefthook.yml`.
 */
function hookToEdit(
  top: string,
  dir: string,
  path: string,
  current: string,
  storeArg: string | undefined,
): { edit: string; by: 'pre-commit' } | { edit: string; by?: string; add: string } {
  const command = hookCheck(storeArg);
  if (basename(dir) === '_' && existsSync(join(dir, 'h'))) return { edit: join(dirname(dir), 'pre-commit'), by: 'husky', add: command };
  // What to add to the pre-commit framework's config depends on what it runs already: preCommitFramework reads it.
  if (current.includes('# File generated by pre-commit')) return { edit: join(top, '.pre-commit-config.yaml'), by: 'pre-commit' };
  if (current.includes('lefthook')) {
    // Every name lefthook reads its config from (lefthook.dev/configuration): one in TOML or JSON is the one to edit,
    // never a lefthook.yml beside it, of which lefthook would read only one.
    const names = ['yml', 'yaml', 'toml', 'json', 'jsonc'].flatMap((ext) => [
      `lefthook.${ext}`,
      `.lefthook.${ext}`,
      `.config/lefthook.${ext}`,
    ]);
    const config = names.find((n) => existsSync(join(top, n))) ?? names[0]!;
    return { edit: join(top, config), by: 'lefthook', add: `a pre-commit command running ${command}` };
  }
  return { edit: path, add: command };
}

/**
 * What the pre-commit framework's config `file` lacks of the hooks `init --hooks` stands for: `agents-validate`, and
 * `agents-export-check` when `exportCheck` is asked, each on the store `storeArg` names; `add` says them as the refusal
 * asks for them. A config that is not there, not a regular file or not pre-commit's shape runs neither.
 */
async function preCommitFramework(
  file: string,
  storeArg: string | undefined,
  exportCheck: boolean,
): Promise<{ missing: string[]; add: string; exportCheck: boolean }> {
  const { preCommitRuns } = await import('../core/pre-commit-config.ts');
  const read = readRegularFile(file, MAX_HOOK_BYTES, { followLinks: true });
  const runs = preCommitRuns(read.ok ? read.bytes.toString('utf8') : '', storeArg);
  const wanted: PreCommitHookId[] = ['agents-validate', ...(exportCheck ? (['agents-export-check'] as const) : [])];
  const missing = wanted.filter((id) => !runs.has(id));
  // pre-commit adds `args` to the hook's entry (`agents validate --staged`), run at the top as this hook would.
  const args = storeArg ? `, with \`args: [--store, ${yamlFlowWord(notAnOption(storeArg))}]\`` : '';
  const add =
    missing.length === 1
      ? `the hook \`${missing[0]}\`${args}`
      : `the hooks ${missing.map((id) => `\`${id}\``).join(' and ')}${args ? `${args.replace(', with', ', each with')}` : ''}`;
  return { missing, add, exportCheck: runs.has('agents-export-check') };
}

/** Writes the hook `planPreCommitHook` checked (nothing for one it keeps). */
export function writePreCommitHook(plan: HookPlan): HookInstall {
  if (plan.action === 'kept')
    return {
      path: plan.path,
      action: plan.action,
      merge: null,
      attributes: null,
      runs: plan.runs,
      ...(plan.config ? { config: plan.config } : {}),
    };
  if (plan.action !== 'unchanged') {
    writeFileAtomic(plan.dir, 'pre-commit', plan.script, 'replace', undefined, plan.path);
    chmodSync(plan.path, 0o755);
  }
  if (plan.merge && (plan.merge.action === 'installed' || plan.merge.action === 'updated')) {
    writeFileAtomic(plan.dir, 'pre-merge-commit', plan.mergeScript, 'replace', undefined, plan.merge.path);
    chmodSync(plan.merge.path, 0o755);
  }
  if (plan.attributesText !== undefined) writeFileAtomic(plan.dir, '.gitattributes', plan.attributesText, 'replace');
  return { path: plan.path, action: plan.action, merge: plan.merge, attributes: plan.attributes, runs: plan.runs };
}

/**
 * Whether the pre-commit hook git runs for the repository holding `storeRoot` is ours with the export check
 * (`init --hooks --export-check`): a commit `--commit` makes then fails while the exported files are stale.
 */
export async function hookChecksExports(storeRoot: string): Promise<boolean> {
  const hook = readRegularFile(join(await hooksDir(storeRoot), 'pre-commit'), MAX_HOOK_BYTES, { followLinks: true });
  if (!hook.ok) return false;
  const text = hook.bytes.toString('utf8');
  return text.includes(HOOK_MARKER) && text.includes(' export --check');
}
