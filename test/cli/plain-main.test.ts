import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainMain } from '../../src/cli/plain-main.ts';
import { git, gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';
import { BIN, REPO } from '../helpers/cli.ts';
import { bundledIn, traceLoads } from '../helpers/loads.ts';
import { runMain } from '../helpers/main.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/** `plainMain` in this process, with the streams captured as runMain captures them. */
async function runPlain(args: string[], cwd = REPO): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end();
  const code = await plainMain(args, {
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
    stdin,
    env: { NO_COLOR: '1', CI: 'true' },
    cwd,
  });
  return { code, stdout, stderr };
}

describe('invariant list and validate without the argument parser (src/cli/plain-main.ts)', () => {
  it.each([
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp']],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json']],
    [['invariant', 'ls', '--store=.agents.example', '--effective', `--plan=${PLAN.slice(0, 8)}`, '--format=yaml']],
    [['--store', '.agents.example', 'invariant', 'list']],
    [['--store', '.agents.example', '--format', 'json', 'invariant', 'list', '--all', 'delete']],
    [['--store', '.agents.example', 'invariant', 'list', '--global', '--no-color', '--no-input']],
    [['--store', '.agents.example', 'invariant', 'list', 'API', '--project', 'myapp']],
    // Errors: the same message, hint and exit code as through the parser.
    [['--store', '.agents.example', 'invariant', 'list', '--effective']],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--all', '--project', 'myapp']],
    [['--store', '.agents.example', 'invariant', 'list', '--project', 'nope', '--format', 'json']],
    [['--store', '.agents.example', 'invariant', 'list', '--project', 'myapp', '--global']],
    [['--store', '.agents.example', 'invariant', 'list', '(unclosed']],
    [['--store', 'no-such-store', 'invariant', 'list']],
  ])('agents %j answers exactly as the full parser does', async (args) => {
    const fast = await runPlain(args);
    const full = await runMain(args, { cwd: REPO });
    expect(fast.code).toBeTypeOf('number');
    expect(fast).toEqual(full);
  });

  it.each([
    [['invariant', 'list', '--help']],
    [['invariant', 'list', '-h']],
    [['invariant', 'list', '-i']],
    [['invariant', 'list', '--interactive']],
    [['invariant', 'list', '--project']],
    [['invariant', 'list', '--project', '--effective']],
    [['invariant', 'list', '--project=']],
    [['invariant', 'list', '--project', 'a', '--project', 'b']],
    [['invariant', 'list', '--effective', '--effective']],
    [['invariant', 'list', '--effective=true']],
    [['invariant', 'list', '--effective', 'true']],
    [['invariant', 'list', 'a', 'b']],
    [['invariant', 'list', '--', '-x']],
    [['invariant', 'list', '--bogus']],
    [['invariant', 'list', '--format', 'github']],
    [['--store', 'a', '--store', 'b', 'invariant', 'list']],
    [['--effective', 'invariant', 'list']],
    [['invariant', 'show', 'list']],
    [['list']],
    [['plan', 'list']],
    [['validate', '--staged', '--changed']],
    [['validate', '--fix']],
    [['validate', '--format', 'sarif']],
    [['validate', '--no-staged']],
    [['validate', '--no-cache=x']],
    [['validate', '--cache', '--no-cache']],
    [['validate', '--effective']],
    [['invariant', 'list', '--staged']],
  ])('hands agents %j to the full parser', async (args) => {
    expect((await runPlain(args)).code).toBeUndefined();
  });

  it('validate in its plain forms answers exactly as the full parser does, in a repository with one file staged', async () => {
    const repo = tempDir();
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    gitInit(repo);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'store');
    const file = join(repo, '.agents/global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml');
    writeFileSync(file, 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete production data\nseverity: fatal\n');
    git(repo, 'add', '-A');
    for (const args of [
      ['validate', '--staged'],
      ['validate', '--staged', '--format', 'json', '--verbose'],
      ['validate', '--staged', '--all-files', '--no-cache', '--strict'],
      ['--format=yaml', 'validate'],
      ['validate', '--changed', '--no-color'],
      ['validate', '--all-files'],
      ['validate', '--cache', '--store', '.agents', '--quiet'],
      ['validate', '.agents/global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml', '.agents/projects'],
      ['validate', '--staged', '.agents/global'],
      ['validate', 'no-such-file.yaml'],
    ]) {
      const fast = await runPlain(args, repo);
      const full = await runMain(args, { cwd: repo });
      expect(fast.code, args.join(' ')).toBeTypeOf('number');
      expect(fast, args.join(' ')).toEqual(full);
    }
    // The staged file is at fault: exit 1 both ways.
    expect((await runPlain(['validate', '--staged'], repo)).code).toBe(1);
  });

  it('invariant diff in its plain forms answers exactly as the full parser does, and loads neither dist/cli.js nor yargs', async () => {
    const repo = tempDir();
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    gitInit(repo);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'store');
    const file = join(repo, '.agents/global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml');
    writeFileSync(file, 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete production data, ever\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'edit');
    writeFileSync(file, 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete any production data\n');
    for (const args of [
      ['invariant', 'diff', 'HEAD~1..HEAD'],
      ['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json', '--all-projects'],
      ['invariant', 'diff', '--project', 'myapp', '--exit-code'],
      ['invariant', 'diff', `--plan=${PLAN}`, 'HEAD~1'],
      ['--format=yaml', 'invariant', 'diff', '--staged'],
      ['invariant', 'diff', '--project', 'myapp', '--plan', PLAN],
      ['invariant', 'diff', 'no-such-rev..HEAD', '--store', '.agents', '--no-color'],
    ]) {
      const fast = await runPlain(args, repo);
      const full = await runMain(args, { cwd: repo });
      expect(fast.code, args.join(' ')).toBeTypeOf('number');
      expect(fast, args.join(' ')).toEqual(full);
    }
    expect((await runPlain(['invariant', 'diff', '--project', 'myapp', '--exit-code'], repo)).code).toBe(1);
    for (const args of [
      ['invariant', 'diff', '--format', 'markdown'],
      ['invariant', 'diff', 'A', 'B'],
      ['invariant', 'diff', '--help'],
      ['invariant', 'diff', '--project'],
    ])
      expect((await runPlain(args, repo)).code, args.join(' ')).toBeUndefined();
    const r = traceLoads([BIN, 'invariant', 'diff', 'HEAD~1..HEAD'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(r.dist).toContain('dist/plain-main.js');
    expect(r.dist).not.toContain('dist/cli.js');
    expect(bundledIn(r.dist)).not.toContain('yargs');
  });

  it('agents --store DIR invariant list --effective --project P loads neither dist/cli.js nor yargs', () => {
    const r = traceLoads([BIN, '--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Effective set of project myapp');
    expect(r.dist).toContain('dist/plain-main.js');
    expect(r.dist).not.toContain('dist/cli.js');
    expect(bundledIn(r.dist)).not.toContain('yargs');
  });

  it('agents invariant list --help goes to the full parser (dist/cli.js) and prints the usage', () => {
    const r = traceLoads([BIN, 'invariant', 'list', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--effective');
    expect(r.dist).toContain('dist/cli.js');
  });
});
