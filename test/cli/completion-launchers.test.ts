import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { bashCompletion } from '../helpers/bash-completion.ts';

/**
 * A folder with an `npx` and a `pnpm` that log how they were asked, then start this agents when asked as the scripts
 * ask (`npx --no-install agents|agents-invariants`, `pnpm exec agents`), an `npm`, a `yarn` and a `bunx` that log and
 * fail (the scripts never ask them: npm exec's lines are asked of npx, yarn's and bunx's of node_modules/.bin), and no
 * `agents`: agents installed in the repository, run through a launcher.
 */
function launchers(): { bin: string; log: string } {
  const bin = join(tempDir(), 'bin');
  mkdirSync(bin);
  const log = join(tempDir(), 'launchers.log');
  const start = `exec '${process.execPath}' '${BIN}' "$@"`;
  writeFileSync(
    join(bin, 'npx'),
    [
      '#!/bin/sh',
      `printf 'npx %s\\n' "$*" >> '${log}'`,
      // npx where agents is not installed: npm's errors, on stderr.
      '[ -z "$AGENTS_TEST_MISSING" ] || { echo "npm error 404 Not Found" >&2; exit 1; }',
      '[ "$1" = --no-install ] || exit 9',
      'shift',
      'case "$1" in --package=agents-invariants) shift;; esac',
      'case "$1" in agents|agents-invariants) shift;; *) exit 9;; esac',
      start,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  writeFileSync(
    join(bin, 'pnpm'),
    `#!/bin/sh\nprintf 'pnpm %s\\n' "$*" >> '${log}'\n[ "$1 $2" = "exec agents" ] || exit 9\nshift 2\n${start}\n`,
    { mode: 0o755 },
  );
  for (const other of ['npm', 'yarn', 'bunx']) {
    writeFileSync(join(bin, other), `#!/bin/sh\nprintf '${other} %s\\n' "$*" >> '${log}'\nexit 9\n`, { mode: 0o755 });
  }
  writeFileSync(log, '');
  return { bin, log };
}

/** Installs this agents in `top`'s node_modules/.bin, where yarn and bunx find it. */
function installLocally(top: string): void {
  mkdirSync(join(top, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BIN, join(top, 'node_modules', '.bin', 'agents'));
}

/** Lines of yarn and bunx, completed only where node_modules/.bin/agents is found: elsewhere bunx would download. */
const LOCAL_LINES = ['yarn agents plan status ', 'bunx agents plan status '];

/** Whether the log shows yarn or bunx asked for candidates (they would download, or print lines of their own). */
function askedYarnOrBunx(log: string): boolean {
  return /^(yarn|bunx) .*--get-yargs-completions/m.test(readFileSync(log, 'utf8'));
}

/** The script `agents completion SHELL` prints, in a file. */
async function scriptFile(shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  const r = await runMain(['completion', shell], { cwd: tempDir(), env: { PATH: '/usr/bin:/bin' } });
  expect(r.code).toBe(0);
  const file = join(tempDir(), `agents.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

/** The lines each shell is asked to complete, and what it offers: agents' candidates, through the launcher typed. */
const LINES: readonly (readonly [string, readonly string[]])[] = [
  ['npx agents invariant list --project m', ['myapp']],
  ['npx agents-invariants plan status ', [EXAMPLE_PLAN]],
  ['npx --yes agents invariant list --format ', ['json', 'text', 'yaml']],
  // The package npx is told to run agents from is named again; --yes is not.
  ['npx -y -p agents-invariants agents invariant list --project m', ['myapp']],
  ['npx --package=agents-invariants agents plan status ', [EXAMPLE_PLAN]],
  ['pnpm exec agents invariant list --project ', ['myapp']],
  // pnpm runs `pnpm agents` as `pnpm exec agents`.
  ['pnpm agents invariant list --project ', ['myapp']],
  // npm exec is asked as npx is; the first -- on the line is npm's, not agents'.
  ['npm exec agents -- invariant list --project m', ['myapp']],
  ['npm exec -- agents plan status ', [EXAMPLE_PLAN]],
  ['npm exec --yes -- agents-invariants invariant list --format ', ['json', 'text', 'yaml']],
  ['npm x -p agents-invariants agents plan status ', [EXAMPLE_PLAN]],
  // yarn and bunx: the agents of node_modules/.bin, as they would run it.
  ['yarn agents invariant list --project m', ['myapp']],
  ['bunx agents plan status ', [EXAMPLE_PLAN]],
  ['bunx --bun agents-invariants invariant list --format ', ['json', 'text', 'yaml']],
];

/** The words of a line as the shell splits them (bash's at an = too), an empty last one when the line ends in a blank. */
function wordsOf(line: string, shell: 'bash' | 'zsh'): string[] {
  const words = (shell === 'bash' ? line.replaceAll('=', ' = ') : line).trim().split(/ +/);
  return line.endsWith(' ') ? [...words, ''] : words;
}

function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

describe('completion of agents run through npx, npm exec, pnpm, yarn or bunx', () => {
  it('bash completes `npx agents …`, `npm exec agents -- …`, `pnpm (exec) agents …`, `yarn agents …` and `bunx agents …`', async () => {
    const top = dirname(exampleStore());
    const { bin, log } = launchers();
    const file = await scriptFile('bash');
    const bash = (line: string, before = '', extra: Record<string, string> = {}) => {
      const words = wordsOf(line, 'bash');
      const r = bashCompletion({
        setup: `${before}\nsource '${file}'`,
        line,
        words,
        call: `_agents_yargs_completions '${words[0]}' '${words.at(-1)}' '${words.at(-2)}'`,
        cwd: top,
        env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, ...extra },
      });
      expect(r.stderr, line).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    for (const line of LOCAL_LINES) expect(bash(line), line).toEqual([]);
    expect(askedYarnOrBunx(log)).toBe(false);
    installLocally(top);
    for (const [line, offered] of LINES) expect(bash(line).sort(), line).toEqual([...offered].sort());
    expect(askedYarnOrBunx(log)).toBe(false);
    // A -- after npm's own is agents': after it, no options.
    expect(bash('npm exec -- agents invariant list -- --pro')).toEqual([]);
    expect(bash('npm exec agents -- invariant list -- --pro')).toEqual([]);
    // npx never downloads at a Tab: it is asked with --no-install.
    expect(readFileSync(log, 'utf8')).toContain('npx --no-install agents-invariants --get-yargs-completions agents plan status \n');
    expect(readFileSync(log, 'utf8')).toContain('pnpm exec agents --get-yargs-completions agents invariant list --project \n');
    expect(readFileSync(log, 'utf8')).toContain('npx --no-install --package=agents-invariants agents --get-yargs-completions agents plan');
    // Another program run through npx or pnpm: agents is not asked, the completion pnpm had before answers.
    writeFileSync(log, '');
    expect(bash('npx eslint ')).toEqual([]);
    const before = `_pnpm_own() { COMPREPLY=(install); }; complete -F _pnpm_own pnpm; source '${file}'`;
    expect(bash('pnpm ins', before)).toEqual(['install']);
    const yarnBefore = `_yarn_own() { COMPREPLY=(upgrade); }; complete -F _yarn_own yarn; source '${file}'`;
    expect(bash('yarn up', yarnBefore)).toEqual(['upgrade']);
    expect(bash('npm exec eslint ')).toEqual([]);
    expect(readFileSync(log, 'utf8')).toBe('');
    // Where agents is not installed, npx's errors never land on the line being typed (nor agents' own absence).
    expect(bash('npx agents plan ', '', { AGENTS_TEST_MISSING: '1' })).toEqual([]);
    expect(bash('agents plan ')).toEqual([]);
  });

  it.skipIf(!onPath('zsh'))("zsh completes them, and leaves the launchers' other lines to the completion they had", async () => {
    const top = dirname(exampleStore());
    const { bin, log } = launchers();
    const file = await scriptFile('zsh');
    // One home for the test: compinit's dump, written there by the first run, spares the others reading every function.
    const home = tempDir();
    const zsh = (line: string, extra: Record<string, string> = {}) => {
      const words = wordsOf(line, 'zsh');
      // _describe and _default, zsh's own, offer to the line editor, which a zsh -c has not: stood in for by prints.
      const script = [
        'autoload -Uz compinit && compinit -u',
        '_pnpm_own() { print pnpm-own }',
        'compdef _pnpm_own pnpm',
        `source '${file}'`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion, not a template
        '_describe() { print -l -- ${(P)2} }',
        '_default() { print file-names }',
        `words=(${words.map((w) => `'${w}'`).join(' ')})`,
        `CURRENT=${words.length}`,
        `BUFFER='${line}'`,
        `CURSOR=${line.length}`,
        '_agents_yargs_completions',
      ].join('\n');
      const r = spawnSync('zsh', ['-f', '-c', script], {
        cwd: top,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, HOME: home, ...extra },
      });
      expect(r.stderr, line).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    for (const line of LOCAL_LINES) expect(zsh(line), line).toEqual(['file-names']);
    expect(askedYarnOrBunx(log)).toBe(false);
    installLocally(top);
    for (const [line, offered] of LINES) expect(zsh(line).sort(), line).toEqual([...offered].sort());
    expect(askedYarnOrBunx(log)).toBe(false);
    expect(zsh('npm exec -- agents invariant list -- --pro')).toEqual(['file-names']);
    expect(zsh('npx agents plan ', { AGENTS_TEST_MISSING: '1' })).toEqual(['file-names']);
    expect(zsh('agents plan ')).toEqual(['file-names']);
    writeFileSync(log, '');
    expect(zsh('npx eslint ')).toEqual(['file-names']);
    expect(zsh('pnpm ins')).toEqual(['pnpm-own']);
    expect(readFileSync(log, 'utf8')).toBe('');
    // zsh's own completion of npm answers (its _npm), never agents.
    zsh('npm exec eslint ');
    expect(readFileSync(log, 'utf8')).not.toContain('--get-yargs-completions');
  });

  it.skipIf(!onPath('fish'))("fish completes them, and file names for the launchers' other lines", async () => {
    const top = dirname(exampleStore());
    mkdirSync(join(top, 'somedir'));
    const { bin, log } = launchers();
    const file = await scriptFile('fish');
    const fish = (line: string, extra: Record<string, string> = {}) => {
      const r = spawnSync('fish', ['--no-config', '-c', `source '${file}'; complete -C ${JSON.stringify(line)}`], {
        cwd: top,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, HOME: tempDir(), ...extra },
      });
      expect(r.stderr, line).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    for (const line of LOCAL_LINES) expect(fish(line.replace(/ $/, ' som')), line).toEqual(['somedir/']);
    expect(askedYarnOrBunx(log)).toBe(false);
    installLocally(top);
    for (const [line, offered] of LINES) expect(fish(line).sort(), line).toEqual([...offered].sort());
    expect(askedYarnOrBunx(log)).toBe(false);
    expect(fish('npm exec -- agents invariant list -- --pro')).toEqual([]);
    expect(fish('npx agents --store=som')).toEqual(['--store=somedir/']);
    expect(fish('npx agents --store som', { AGENTS_TEST_MISSING: '1' })).toEqual(['somedir/']);
    expect(fish('agents --store som')).toEqual(['somedir/']);
    writeFileSync(log, '');
    expect(fish('npx eslint som')).toEqual(['somedir/']);
    expect(fish('pnpm install som')).toEqual(['somedir/']);
    expect(fish('npm exec eslint som')).toEqual(['somedir/']);
    expect(readFileSync(log, 'utf8')).toBe('');
  });
});

describe('completion of agents named by its path', () => {
  it('asks the agents the line names (./node_modules/.bin/agents, ~/bin/agents), in bash, zsh and fish', async () => {
    const top = dirname(exampleStore());
    mkdirSync(join(top, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(BIN, join(top, 'node_modules', '.bin', 'agents'));
    // No agents on PATH: the one the line names answers, by a path from the current folder or from home.
    const home = tempDir();
    mkdirSync(join(home, 'bin'));
    symlinkSync(BIN, join(home, 'bin', 'agents'));
    const env = { ...process.env, PATH: '/usr/bin:/bin', HOME: home };
    for (const line of ['./node_modules/.bin/agents plan status ', '~/bin/agents plan status ']) {
      await completesByPath(top, env, line);
    }
  });
});

/** Each shell completes `line`, which names agents by a path, to the example plan. */
async function completesByPath(top: string, env: NodeJS.ProcessEnv, line: string): Promise<void> {
  const words = wordsOf(line, 'bash');
  const bash = bashCompletion({
    setup: `source '${await scriptFile('bash')}'`,
    line,
    words,
    call: `_agents_yargs_completions '${words[0]}'`,
    cwd: top,
    env,
  });
  expect([bash.stderr, bash.stdout.trim()], line).toEqual(['', EXAMPLE_PLAN]);
  if (onPath('zsh')) {
    const script = [
      `source '${await scriptFile('zsh')}'`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion, not a template
      '_describe() { print -l -- ${(P)2} }',
      `words=(${words.map((w) => `'${w}'`).join(' ')})`,
      `CURRENT=${words.length}`,
      '_agents_yargs_completions',
    ].join('\n');
    const zsh = spawnSync('zsh', ['-f', '-c', script], { cwd: top, encoding: 'utf8', env });
    expect([zsh.stderr, zsh.stdout.trim()], line).toEqual(['', EXAMPLE_PLAN]);
  }
  if (onPath('fish')) {
    const fishFile = await scriptFile('fish');
    for (const typed of [line, line.replace(/^\.\//, '')]) {
      const fish = spawnSync('fish', ['--no-config', '-c', `source '${fishFile}'; complete -C ${JSON.stringify(typed)}`], {
        cwd: top,
        encoding: 'utf8',
        env,
      });
      expect([fish.stderr, fish.stdout.trim()], typed).toEqual(['', EXAMPLE_PLAN]);
    }
  }
}
