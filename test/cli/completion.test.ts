import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellUnquoted, wordKind } from '../../src/cli/completion.ts';
import { BIN } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { bashCompletion } from '../helpers/bash-completion.ts';

/** Completions of the last word, as the script `agents completion` asks for them (the program's name first). */
async function complete(cwd: string, ...words: string[]): Promise<string[]> {
  const r = await runMain(['--get-yargs-completions', 'agents', ...words], { cwd });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('shell completion of the store names', () => {
  it('knows which words name something in the store', () => {
    expect(wordKind(['invariant', 'list', '--project', ''])).toBe('project');
    expect(wordKind(['--store', 'x', 'plan', 'show', ''])).toBe('plan');
    expect(wordKind(['plan', 'use', 'lo'])).toBe('template');
    expect(wordKind(['invariant', 'list', '--action', ''])).toBe('template');
    // A policy source's template is not written to.
    expect(wordKind(['invariant', 'add', '--action', ''])).toBe('action');
    expect(wordKind(['invariant', 'move', 'x', '--action', ''])).toBe('action');
    expect(wordKind(['invariant', 'rm', '01'])).toBe('invariant');
    expect(wordKind(['plan', 'remove', ''])).toBe('plan');
    expect(wordKind(['plan', 'rm', '01M8'])).toBe('plan');
    expect(wordKind(['project', 'remove', ''])).toBe('project');
    expect(wordKind(['invariant', 'add', '--plan', ''])).toBe('plan');
    // Commands, options, and arguments past the first are yargs' to complete.
    expect(wordKind(['plan', ''])).toBeUndefined();
    expect(wordKind(['invariant', 'list', '--pro'])).toBeUndefined();
    expect(wordKind(['plan', 'show', EXAMPLE_PLAN, ''])).toBeUndefined();
    expect(wordKind(['invariant', 'add', ''])).toBeUndefined();
  });

  it('offers the projects, action templates, plans and ids of the store, by prefix and in the case typed', async () => {
    const root = exampleStore();
    const top = dirname(root);
    expect(await complete(top, 'invariant', 'list', '--project', '')).toEqual(['myapp']);
    expect(await complete(top, 'plan', 'use', 'lo')).toEqual(['local/code-coverage']);
    expect(await complete(top, 'plan', 'status', '')).toEqual([EXAMPLE_PLAN]);
    expect(await complete(top, 'plan', 'status', EXAMPLE_PLAN.slice(0, 6).toLowerCase())).toEqual([EXAMPLE_PLAN.toLowerCase()]);
    const ids = await complete(top, 'invariant', 'show', '01M8KJ');
    expect(ids).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(ids.every((id) => id.startsWith('01M8KJ'))).toBe(true);
    // --store is taken from the words typed.
    expect(await complete(tempDir(), '--store', root, 'invariant', 'list', '--project', 'my')).toEqual(['myapp']);
    // Outside any store: nothing offered, and no error on the line being typed.
    expect(await complete(tempDir(), 'invariant', 'list', '--project', '')).toEqual([]);
    // Commands and options are still yargs'.
    expect(await complete(top, 'plan', 'sta')).toContain('status');
  });

  it("reads a command's own option values as values, not as its argument", async () => {
    const root = exampleStore();
    const top = dirname(root);
    // The choices of --severity, not invariant ids; yargs offers them.
    expect(await complete(top, 'invariant', 'edit', '--severity', '')).toEqual(['error', 'warning', 'info']);
    // The id still comes after an option and its value.
    const ids = ['invariant', 'edit', '--text', 'Keep it', '01M8KJ'];
    expect(await complete(top, ...ids)).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(await complete(top, 'invariant', 'waive', '--reason', 'why', '01M8KJ')).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(await complete(top, 'invariant', 'remove', '--yes', '01M8KJ')).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    // A path or a text: nothing offered (neither the commands nor the options), so the shell completes file names.
    expect(await complete(top, '--store', '')).toEqual([]);
    expect(await complete(top, 'guard', 'try', '--path', '')).toEqual([]);
    expect(await complete(top, 'invariant', 'edit', '01M8KJT9', '--text', '')).toEqual([]);
    // The arguments of which, validate and import are files: an empty word offers no options, so the shell completes
    // file names (options come with a dash).
    expect(await complete(top, 'which', '')).toEqual([]);
    expect(await complete(top, 'validate', '--strict', '')).toEqual([]);
    expect(await complete(top, 'import', '')).toEqual([]);
    expect(await complete(top, 'validate', '--str')).toContain('--strict');
    expect(await complete(top, 'validate', '--format', 'g')).toEqual(['github']);
    // An option of other commands names nothing here: export takes no --action, guard try no --plan.
    expect(await complete(top, 'export', '--action', '')).not.toContain('local/code-coverage');
    expect(await complete(top, 'guard', 'try', '--plan', '')).not.toContain(EXAMPLE_PLAN);
    expect(await complete(top, 'export', '--plan', '')).toEqual([EXAMPLE_PLAN]);
    // Options whose value is an invariant's id.
    expect(await complete(top, 'invariant', 'violation', 'add', '--invariant', '01M8KJT')).toEqual(['01M8KJT9G0XNWEM589ZS7FV0VT']);
    expect(await complete(top, 'invariant', 'edit', 'x', '--overrides', '01M8KJT')).toEqual(['01M8KJT9G0XNWEM589ZS7FV0VT']);
  });

  it('offers the names of an option that takes a comma list (export --target, guard install --client), after those typed', async () => {
    const top = dirname(exampleStore());
    expect(await complete(top, 'export', '--target', '')).toEqual([
      'agents-md',
      'claude-md',
      'gemini-md',
      'copilot',
      'cursor',
      'windsurf',
      'cline',
    ]);
    expect(await complete(top, 'export', '--check', '--target', 'c')).toEqual(['claude-md', 'copilot', 'cursor', 'cline']);
    expect(await complete(top, 'guard', 'install', '--client', 'claude,c')).toEqual(['claude,codex', 'claude,cursor']);
    expect(await complete(top, 'guard', 'install', '--client', '=', 'codex,')).toEqual(['codex,claude', 'codex,gemini', 'codex,cursor']);
  });

  it('reads an option written with = as bash hands it over, split at the =', async () => {
    const root = exampleStore();
    const top = dirname(root);
    expect(await complete(tempDir(), '--store', '=', root, 'invariant', 'show', '01M8KJ')).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(await complete(top, 'invariant', 'list', '--project', '=', 'my')).toEqual(['myapp']);
    expect(await complete(top, '--format', '=', 'json', 'plan', 'sta')).toContain('status');
  });

  it('reads an option written with = as zsh and fish hand it over, one word, and offers it whole', async () => {
    const root = exampleStore();
    const top = dirname(root);
    expect(await complete(top, 'invariant', 'list', '--format=y')).toEqual(['--format=yaml']);
    expect(await complete(top, 'invariant', 'list', '--project=my')).toEqual(['--project=myapp']);
    expect(await complete(top, 'invariant', 'edit', '--severity=')).toEqual(['--severity=error', '--severity=warning', '--severity=info']);
    expect(await complete(top, 'guard', 'install', '--client=claude,c')).toEqual(['--client=claude,codex', '--client=claude,cursor']);
    // A path: nothing, so that the shell completes the file names after the =.
    expect(await complete(top, '--store=s')).toEqual([]);
  });

  it("offers the --no- forms of the command's on/off options once --no- is typed, and one-letter options with one dash", async () => {
    const top = dirname(exampleStore());
    expect(await complete(top, 'export', '--no-ca')).toEqual(['--no-cache']);
    expect(await complete(top, '--no-c')).toEqual(['--no-color']);
    expect(await complete(top, 'invariant', 'remove', '--no-')).toEqual([
      '--no-input',
      '--no-color',
      '--no-quiet',
      '--no-yes',
      '--no-commit',
    ]);
    // The value of an option is never taken for one.
    expect(await complete(top, 'invariant', 'edit', 'x', '--text', '--no-')).toEqual([]);
    const options = await complete(top, 'invariant', 'list', '--');
    expect(options).toContain('--interactive');
    expect(options).not.toContain('--i');
    expect(await complete(top, 'invariant', 'list', '-')).toContain('-i');
  });

  it('reads a --store path as the shell will, its quotes and backslashes taken out (bash and zsh pass them on)', async () => {
    const store = join(tempDir(), 'my store', '.agents');
    cpSync(exampleStore(), store, { recursive: true });
    const quoted = [`"${store}"`, `'${store}'`, store.replace(' ', '\\ '), `--store="${store}"`];
    for (const written of quoted) {
      const words = written.startsWith('--') ? [written] : ['--store', written];
      expect(await complete(tempDir(), ...words, 'invariant', 'list', '--project', 'my'), written).toEqual(['myapp']);
    }
    expect(shellUnquoted(`a\\ b"c\\"d"'e\\f'`)).toBe('a bc"de\\f');
  });

  it('reads every word after -- as an argument: no options nor commands offered, the store names of the first one', async () => {
    const top = dirname(exampleStore());
    for (const words of [
      ['invariant', 'add', '--', ''],
      ['invariant', 'list', '--', '--pro'],
      ['invariant', 'list', '--', '--no-'],
      ['which', '--', '-'],
      ['--', ''],
      ['invariant', '--', ''],
      // Not --project's value: an argument, the second.
      ['invariant', 'show', '--', '--project', ''],
      ['invariant', 'edit', '01M8KJT9G0XNWEM589ZS7FV0VT', '--', '01M8KJT'],
    ]) {
      expect(await complete(top, ...words), words.join(' ')).toEqual([]);
    }
    expect(await complete(top, 'invariant', 'show', '--', '01M8KJT')).toEqual(['01M8KJT9G0XNWEM589ZS7FV0VT']);
    expect(await complete(top, 'invariant', 'edit', '--text', 'Keep it', '--', '01m8kjt')).toEqual(['01m8kjt9g0xnwem589zs7fv0vt']);
    expect(await complete(top, 'plan', 'use', '--', 'lo')).toEqual(['local/code-coverage']);
  });

  it('offers no plan id after plan activate --clear, which takes none', async () => {
    const top = dirname(exampleStore());
    for (const words of [
      ['plan', 'activate', '--clear', ''],
      ['plan', 'activate', '--clear', '01'],
      ['plan', 'activate', '--clear', '--', ''],
    ]) {
      expect(await complete(top, ...words), words.join(' ')).not.toContain(EXAMPLE_PLAN);
    }
    expect(await complete(top, 'plan', 'activate', '--clear', '--', '')).toEqual([]);
    // Without it, or turned off, the id is still offered.
    expect(await complete(top, 'plan', 'activate', '')).toEqual([EXAMPLE_PLAN]);
    expect(await complete(top, 'plan', 'activate', '--no-clear', '')).toEqual([EXAMPLE_PLAN]);
    expect(await complete(top, 'plan', 'activate', '--', '')).toEqual([EXAMPLE_PLAN]);
  });

  it('offers the violations recorded to invariant violation resolve', async () => {
    const root = exampleStore();
    const top = dirname(root);
    const add = ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', '01M8KJT9G0XNWEM589ZS7FV0VT', '--details', 'x'];
    expect((await runMain(add, { cwd: top })).code).toBe(0);
    const [file] = readdirSync(join(root, 'plans', EXAMPLE_PLAN, 'violations'));
    const id = file!.replace(/\.yaml$/, '');
    expect(await complete(top, 'invariant', 'violation', 'resolve', '')).toEqual([id]);
    expect(await complete(top, 'invariant', 'violation', 'resolve', id.slice(0, 5).toLowerCase())).toEqual([id.toLowerCase()]);
    expect(await complete(top, 'invariant', 'violation', 'resolve', id, '')).not.toContain(id);
  });

  it("offers the shells as completion's argument, not the commands", async () => {
    const top = dirname(exampleStore());
    expect(await complete(top, 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete(top, '--store', 'x', 'completion', 'z')).toEqual(['zsh']);
    // One shell only; an option's value is still the option's.
    expect(await complete(top, 'completion', 'bash', '')).toEqual([]);
    expect(await complete(top, 'completion', '--format', '')).toEqual(['text', 'json', 'yaml']);
    expect(await complete(top, 'completion', '--')).toContain('--store');
  });

  it('completion --help (or -h) prints its help, not the script', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await runMain(['completion', flag], { cwd: tempDir() });
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe('agents completion [bash|zsh|fish]');
      expect(r.stdout).not.toContain('###-begin-agents-completions-###');
    }
    expect((await runMain(['completion'], { cwd: tempDir() })).stdout).toContain('###-begin-agents-completions-###');
  });

  it('completes through the bash script the word at the cursor, not the last of the line (an option added mid-line)', () => {
    const root = exampleStore();
    const line = 'agents invariant list --project  --format json';
    const point = 'agents invariant list --project '.length;
    const script = [
      'source <(agents completion bash)',
      // As bash hands them over with the cursor in the blank before --format: COMP_CWORD points at --format.
      'COMP_WORDS=(agents invariant list --project --format json)',
      'COMP_CWORD=4',
      `COMP_LINE='${line}'`,
      `COMP_POINT=${point}`,
      '_agents_yargs_completions',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const r = spawnSync('bash', ['-c', script], {
      cwd: dirname(root),
      encoding: 'utf8',
      env: { ...process.env, PATH: `${binWithAgents()}:${process.env.PATH}`, NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['myapp']);
  });

  it('completes through the bash script the value after an = typed last (--project=), which bash splits off', () => {
    const top = dirname(exampleStore());
    const bash = (line: string, words: string[]) => {
      const r = bashCompletion({
        setup: 'source <(agents completion bash)',
        line,
        words,
        cwd: top,
        env: { ...process.env, PATH: `${binWithAgents()}:${process.env.PATH}`, NO_COLOR: '1' },
      });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    expect(bash('agents invariant list --project=', ['agents', 'invariant', 'list', '--project', '='])).toEqual(['myapp']);
    expect(bash('agents invariant list --format=', ['agents', 'invariant', 'list', '--format', '=']).sort()).toEqual([
      'json',
      'text',
      'yaml',
    ]);
  });

  it("completes for the shell running the script, whatever login shell SHELL names (zsh's candidates in bash)", () => {
    const root = exampleStore();
    const script = [
      'source <(agents completion bash)',
      'COMP_WORDS=(agents invariant list --forma)',
      'COMP_CWORD=3',
      "COMP_LINE='agents invariant list --forma'",
      'COMP_POINT=29',
      '_agents_yargs_completions',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const r = spawnSync('bash', ['-c', script], {
      cwd: dirname(root),
      encoding: 'utf8',
      env: { ...process.env, PATH: `${binWithAgents()}:${process.env.PATH}`, SHELL: '/usr/bin/zsh', NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['--format']);
  });

  it('works through the bash script `agents completion` prints', () => {
    const root = exampleStore();
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'agents'));
    const script = [
      'source <(agents completion)',
      'COMP_WORDS=(agents invariant list --project my)',
      'COMP_CWORD=4',
      '_agents_yargs_completions',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const r = spawnSync('bash', ['-c', script], {
      cwd: dirname(root),
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, SHELL: '/bin/bash', NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['myapp']);
  });

  it('asks `npx --no-install agents` when npx ran `agents completion` and no agents is on PATH, and says so', async () => {
    const root = exampleStore();
    const top = dirname(root);
    // A PATH that finds node and an `npx` that logs how it was asked, then starts this agents: npx in a repository.
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    const log = join(tempDir(), 'npx.log');
    writeFileSync(
      join(bin, 'npx'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n[ "$1 $2" = "--no-install agents" ] || exit 9\nshift 2\nexec '${process.execPath}' '${BIN}' "$@"\n`,
      { mode: 0o755 },
    );
    const env = { npm_command: 'exec', PATH: `${bin}:/usr/bin:/bin`, SHELL: '/bin/bash' };
    const printed = await runMain(['completion', 'bash'], { cwd: top, env });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('program=(npx --no-install agents)');
    expect(printed.stderr).toContain('npx --no-install agents');
    // Run by npm where agents is on PATH, or not by npm, it asks agents and says nothing.
    for (const other of [{ ...env, PATH: `${binWithAgents()}:${env.PATH}` }, { PATH: env.PATH }]) {
      const r = await runMain(['completion', 'bash'], { cwd: top, env: other });
      expect(r.stdout).toContain('program=(agents)');
      expect(r.stderr).toBe('');
    }
    const file = join(tempDir(), 'agents.bash');
    writeFileSync(file, printed.stdout);
    const script = [
      `source '${file}'`,
      'COMP_WORDS=(agents invariant list --project my)',
      'COMP_CWORD=4',
      "COMP_LINE='agents invariant list --project my'",
      'COMP_POINT=34',
      '_agents_yargs_completions',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const r = spawnSync('bash', ['-c', script], { cwd: top, encoding: 'utf8', env: { ...process.env, PATH: env.PATH, NO_COLOR: '1' } });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['myapp']);
    expect(readFileSync(log, 'utf8')).toContain('--no-install agents --get-yargs-completions agents invariant list --project my');
    if (onPath('zsh')) {
      const zshFile = join(tempDir(), 'agents.zsh');
      writeFileSync(zshFile, (await runMain(['completion', 'zsh'], { cwd: top, env })).stdout);
      // _describe, zsh's own, offers the candidates to the line editor, which a zsh -c has not: stood in for by a print.
      const line = 'agents invariant list --project my';
      const z = spawnSync(
        'zsh',
        [
          '-f',
          '-c',
          `source '${zshFile}'; _describe() { print -l -- \${(P)2} }; words=(${line}); CURRENT=5; BUFFER='${line}'; CURSOR=${line.length}; _agents_yargs_completions`,
        ],
        { cwd: top, encoding: 'utf8', env: { ...process.env, PATH: env.PATH, HOME: tempDir(), NO_COLOR: '1' } },
      );
      expect(z.stderr).toBe('');
      expect(z.stdout.trim().split('\n')).toEqual(['myapp']);
    }
    if (onPath('fish')) {
      const fishScript = (await runMain(['completion', 'fish'], { cwd: top, env })).stdout;
      const fishFile = join(tempDir(), 'agents.fish');
      writeFileSync(fishFile, fishScript);
      const f = spawnSync('fish', ['--no-config', '-c', `source '${fishFile}'; complete -C 'agents invariant list --project m'`], {
        cwd: top,
        encoding: 'utf8',
        env: { ...process.env, PATH: env.PATH, HOME: tempDir(), NO_COLOR: '1' },
      });
      expect(f.stderr).toBe('');
      expect(f.stdout.trim().split('\n')).toEqual(['myapp']);
    }
  });

  it('prints the script of the shell SHELL names, which works in that shell as installed', async () => {
    for (const [shell, marker] of [
      ['/bin/bash', 'complete -o bashdefault'],
      ['/usr/bin/zsh', 'compdef _agents_yargs_completions agents'],
      ['/usr/bin/fish', 'complete -c agents'],
    ] as const) {
      const r = await runMain(['completion'], { cwd: tempDir(), env: { SHELL: shell } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(marker);
    }
  });

  it('prints the script of the shell named, whatever SHELL says, and refuses a word or an option it does not take', async () => {
    const cwd = tempDir();
    const fish = await runMain(['completion', 'fish'], { cwd, env: { SHELL: '/bin/bash' } });
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain('complete -c agents');
    // Global options go anywhere, as with every command.
    const zsh = await runMain(['--store', cwd, 'completion', '--no-color', 'zsh'], { cwd, env: { SHELL: '/bin/bash' } });
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toContain('compdef _agents_yargs_completions agents');
    // A word after -- is the shell too, whatever it looks like.
    const dashed = await runMain(['completion', '--', 'fish'], { cwd, env: { SHELL: '/bin/bash' } });
    expect([dashed.code, dashed.stdout.includes('complete -c agents')]).toEqual([0, true]);
    for (const [args, code] of [
      [['completion', '--', 'tcsh'], 'unexpected-argument'],
      [['completion', 'bash', '--', 'zsh'], 'unexpected-argument'],
      [['completion', '--', '--bogus'], 'unexpected-argument'],
      [['completion', 'tcsh'], 'unexpected-argument'],
      [['completion', 'bash', 'zsh'], 'unexpected-argument'],
      [['completion', '--bogus'], 'unknown-option'],
      [['completion', '--no-store'], 'unknown-option'],
    ] as const) {
      const r = await runMain(['--format', 'json', ...args], { cwd, env: { SHELL: '/bin/bash' } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe(code);
    }
  });

  it.skipIf(!onPath('zsh'))('registers in a zsh whose .zshrc never started its completion system (no compinit)', () => {
    const r = spawnSync('zsh', ['-f', '-c', 'source <(agents completion) && print -r -- $_comps[agents]'], {
      cwd: tempDir(),
      encoding: 'utf8',
      env: { ...process.env, PATH: `${binWithAgents()}:${process.env.PATH}`, SHELL: '/usr/bin/zsh', HOME: tempDir(), NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('_agents_yargs_completions');
  });

  it.skipIf(!onPath('fish'))('works through the fish script: the word being typed, an empty one, a path, an option with =', () => {
    const root = exampleStore();
    const top = dirname(root);
    mkdirSync(join(top, 'somedir'));
    const fish = (line: string) => {
      const r = spawnSync('fish', ['--no-config', '-c', `agents completion | source; complete -C ${JSON.stringify(line)}`], {
        cwd: top,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${binWithAgents()}:${process.env.PATH}`, SHELL: '/usr/bin/fish', HOME: tempDir(), NO_COLOR: '1' },
      });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    expect(fish('agents invariant list --project m')).toEqual(['myapp']);
    expect(fish('agents invariant list --project ')).toEqual(['myapp']);
    expect(fish('agents invariant list --format ').sort()).toEqual(['json', 'text', 'yaml']);
    expect(fish('agents invariant list --format=y')).toEqual(['--format=yaml']);
    expect(fish('agents plan status ')).toEqual([EXAMPLE_PLAN]);
    expect(fish('agents --store som')).toEqual(['somedir/']);
    expect(fish('agents --store=som')).toEqual(['--store=somedir/']);
  });
});

/** Whether a program is on PATH: the shells other than bash are not everywhere. */
function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

/** A folder holding `agents`, the built CLI, for a shell's PATH. */
function binWithAgents(): string {
  const bin = join(tempDir(), 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'agents'));
  return bin;
}
