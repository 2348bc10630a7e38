// Every command an import's report or refusal names with a path works when pasted where the import was run: in a
// folder below the top of the repository, its path is written from there, not from the top.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, GIT_ENV, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { testStore } from '../helpers/tmp.ts';

/** A repository holding a store (.agents) and the files given, committed; `sub` made below its top. */
function repository(files: Record<string, string>, store: Record<string, string> = {}): { top: string; root: string; sub: string } {
  const root = testStore(store);
  const top = dirname(root);
  gitInit(top);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(top, path, '..'), { recursive: true });
    writeFileSync(join(top, path), text);
  }
  const sub = join(top, 'sub');
  mkdirSync(sub);
  writeFileSync(join(sub, '.keep'), '');
  commitAll(top, 'start');
  return { top, root, sub };
}

/** The agents command quoted in `text` (between backticks or after a colon), its words after `agents`. */
function agentsWords(command: string): string[] {
  const words = shellWords(command);
  expect(words[0]).toBe('agents');
  return words.slice(1);
}

describe('commands an import names, pasted in the folder it ran in', () => {
  it('the import of a file a CLAUDE.md has its agent read (`not read … agents import PATH`) names it from the current folder', async () => {
    const { root, sub } = repository({
      'CLAUDE.md': '# Rules\n\n- Never commit secrets.\n\nSee @docs/x.md\n',
      'docs/x.md': '- Always write tests.\n',
    });
    const dry = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: sub });
    expect(dry.code, dry.stdout).toBe(0);
    const { files } = JSON.parse(dry.stdout) as { files: { file: string; references: { path: string; import: string }[] }[] };
    const ref = files.find((f) => f.file === 'CLAUDE.md')!.references[0]!;
    expect(ref.path).toBe('docs/x.md');
    const words = agentsWords(ref.import);
    expect(words[1]).toBe('../docs/x.md');
    const imported = await runAgents(['--format', 'json', ...words, '--yes'], { cwd: sub });
    expect(imported.code, imported.stdout).toBe(0);
    const listed = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--global'], { cwd: sub });
    expect((JSON.parse(listed.stdout) as { text: string }[]).map((i) => i.text)).toEqual(['Always write tests.']);
  });

  it('the import of a nested file into the project that holds its folder (`agents import FILE --project P`)', async () => {
    const { root, top } = repository(
      { 'apps/web/AGENTS.md': '# Web\n\n- Never inline styles in components.\n' },
      { 'projects/web/project.yaml': 'paths:\n  - apps/web/**\n  - packages/ui/**\n' },
    );
    const here = join(top, 'apps');
    const dry = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: here });
    expect(dry.code, dry.stdout).toBe(0);
    const { files } = JSON.parse(dry.stdout) as { files: { file: string; skipped: string | null }[] };
    const skipped = files.find((f) => f.file === 'apps/web/AGENTS.md')!.skipped!;
    const named = /`(agents import [^`]*)`/.exec(skipped)![1]!;
    expect(agentsWords(named)[1]).toBe('web/AGENTS.md');
    const imported = await runAgents(['--format', 'json', ...agentsWords(named), '--yes'], { cwd: here });
    expect(imported.code, imported.stdout).toBe(0);
    const listed = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--project', 'web'], { cwd: here });
    expect((JSON.parse(listed.stdout) as { text: string }[]).map((i) => i.text)).toEqual(['Never inline styles in components.']);
  });

  it('the git command that restores a file deleted from the working tree (`git restore -- PATH`)', async () => {
    const { top, sub } = repository({ 'docs/AGENTS.md': '- Never commit secrets.\n' });
    rmSync(join(top, 'docs/AGENTS.md'));
    const dry = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: sub });
    expect(dry.code, dry.stdout).toBe(0);
    const { files } = JSON.parse(dry.stdout) as { files: { file: string; skipped: string | null }[] };
    const skipped = files.find((f) => f.file === 'docs/AGENTS.md')!.skipped!;
    const restore = /\((git restore -- [^)]*)\)/.exec(skipped)![1]!;
    execFileSync('git', shellWords(restore).slice(1), { cwd: sub, env: { ...process.env, ...GIT_ENV } });
    expect(existsSync(join(top, 'docs/AGENTS.md'))).toBe(true);
    // A path named that git lists but the working tree lacks: refused with the same command, which works as written.
    rmSync(join(top, 'docs/AGENTS.md'));
    const named = await runAgents(['import', '../docs/AGENTS.md', '--dry-run'], { cwd: sub });
    expect(named.code).toBe(2);
    const again = /\((git restore -- [^)]*)\)/.exec(named.stderr)![1]!;
    execFileSync('git', shellWords(again).slice(1), { cwd: sub, env: { ...process.env, ...GIT_ENV } });
    expect(existsSync(join(top, 'docs/AGENTS.md'))).toBe(true);
  });

  it('the import of the folder a named link leads to (`Name the folder it leads to: agents import PATH`)', async () => {
    const { top, sub } = repository({ 'rules/AGENTS.md': '- Never commit secrets.\n' });
    symlinkSync('rules', join(top, 'linked'));
    const r = await runAgents(['import', '../linked', '--dry-run'], { cwd: sub });
    expect(r.code).toBe(2);
    const named = /Name the folder it leads to: (agents import \S+)/.exec(r.stderr)![1]!;
    expect(agentsWords(named)[1]).toBe('../rules');
    const dry = await runAgents([...agentsWords(named), '--dry-run'], { cwd: sub });
    expect(dry.code, dry.stderr).toBe(0);
  });
});
