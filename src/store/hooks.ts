import { chmodSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { GitError, hooksDir, topLevel } from '../git/repo.ts';
import { readRegularFile } from './read-file.ts';
import { writeFileAtomic } from './atomic-write.ts';

/** Marks a hook as ours, so `init --hooks` may update it and never touches anyone else's. */
export const HOOK_MARKER = '# agents-pre-commit-hook';

/**
 * The plain `.git/hooks/pre-commit` script: validates what is staged and,
 * with `exportCheck`, then checks the agents' instruction files `agents
 * export` writes (docs/export.md).
 */
export function preCommitScript(storeArg: string | undefined, exportCheck = false): string {
  const store = storeArg ? ` --store '${storeArg.replace(/'/g, `'\\''`)}'` : '';
  const args = `validate --staged${store}`;
  if (exportCheck) {
    return [
      '#!/bin/sh',
      HOOK_MARKER,
      '# Validates the invariants staged for this commit, then checks that the files `agents export`',
      '# writes (AGENTS.md, CLAUDE.md, …) are up to date; installed by `agents init --hooks --export-check`.',
      '# Skip once with `git commit --no-verify`; delete this file to remove the hook.',
      'if command -v agents >/dev/null 2>&1; then',
      '  AGENTS=agents',
      'elif [ -x node_modules/.bin/agents ]; then',
      '  AGENTS=node_modules/.bin/agents',
      'else',
      '  echo "pre-commit: the agents command was not found; install it (npm install -g agents-invariants) or remove .git/hooks/pre-commit" >&2',
      '  exit 1',
      'fi',
      `"$AGENTS" ${args} || exit 1`,
      `exec "$AGENTS" export --check${store}`,
      '',
    ].join('\n');
  }
  return [
    '#!/bin/sh',
    HOOK_MARKER,
    '# Validates the invariants staged for this commit; installed by `agents init --hooks`.',
    '# Skip once with `git commit --no-verify`; delete this file to remove the hook.',
    'if command -v agents >/dev/null 2>&1; then',
    `  exec agents ${args}`,
    'elif [ -x node_modules/.bin/agents ]; then',
    `  exec node_modules/.bin/agents ${args}`,
    'fi',
    'echo "pre-commit: the agents command was not found; install it (npm install -g agents-invariants) or remove .git/hooks/pre-commit" >&2',
    'exit 1',
    '',
  ].join('\n');
}

/** The largest existing hook read (ours is a few hundred bytes). */
const MAX_HOOK_BYTES = 1024 * 1024;

export interface HookInstall {
  path: string;
  /** "installed", or "updated" when an earlier agents hook was replaced. */
  action: 'installed' | 'updated' | 'unchanged';
}

/**
 * Installs the plain git pre-commit hook for the store at `storeRoot`,
 * refusing to overwrite a hook that agents did not write.
 */
export async function installPreCommitHook(storeRoot: string, exportCheck = false): Promise<HookInstall> {
  let top: string;
  let dir: string;
  try {
    top = await topLevel(storeRoot);
    dir = await hooksDir(storeRoot);
  } catch (error) {
    if (error instanceof GitError)
      throw new UsageError(
        `--hooks needs a git repository: ${error.message}`,
        'Run `git init` first, or use the pre-commit framework (see docs/validation.md).',
      );
    throw error;
  }
  const rel = relative(top, storeRoot).split(sep).join('/');
  const script = preCommitScript(rel === '.agents' ? undefined : rel, exportCheck);
  const path = join(dir, 'pre-commit');
  let action: HookInstall['action'] = 'installed';
  // A hook may be a link (hook managers link them); what it leads to must be a regular file of sensible size.
  const existing = readRegularFile(path, MAX_HOOK_BYTES, { followLinks: true });
  if (!existing.ok && existing.code !== 'missing') {
    throw new UsageError(
      `the pre-commit hook ${path} ${existing.message}; it was left alone`,
      'Nothing was changed. Remove or repair that file, then run `agents init --hooks` again.',
    );
  }
  if (existing.ok) {
    const current = existing.bytes.toString('utf8');
    if (!current.includes(HOOK_MARKER)) {
      throw new UsageError(
        `a pre-commit hook that agents did not install already exists: ${path}`,
        'Nothing was changed. Add `agents validate --staged` to that hook yourself, or use the pre-commit framework or husky (see docs/validation.md).',
      );
    }
    if (current === script) return { path, action: 'unchanged' };
    action = 'updated';
  }
  writeFileAtomic(dir, 'pre-commit', script, 'replace');
  chmodSync(path, 0o755);
  return { path, action };
}
