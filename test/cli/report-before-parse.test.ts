import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { reportBeforeParse } from '../../src/cli/report.ts';
import { UsageError } from '../../src/core/errors.ts';

/** An error met before the parse (src/cli/bundle-entry.ts: the current folder gone), reported from the run's words. */
async function reported(args: string[], env: Record<string, string> = { NO_COLOR: '1' }) {
  let stdout = '';
  let stderr = '';
  const error = new UsageError('the current folder no longer exists', (agents) => `Run \`${agents} validate\` from a folder that exists.`);
  const stdin = new PassThrough();
  stdin.end();
  const code = await reportBeforeParse(
    { stdout: { write: (c: string) => (stdout += c) }, stderr: { write: (c: string) => (stderr += c), isTTY: true }, stdin, env, cwd: '/' },
    error,
    args,
  );
  return { code, stdout, stderr };
}

describe('an error reported before the parse', () => {
  it("names its commands with the run's --store, as every hint does", async () => {
    const r = await reported(['--store', '/srv/my store', 'invariant', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("`agents --store '/srv/my store' validate`");
    const json = await reported(['--store=/srv/s', '--format', 'json', 'invariant', 'list']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      exit_code: 2,
      error: { hint: 'Run `agents --store /srv/s validate` from a folder that exists.' },
    });
    // A --store after `--` is an argument, not the run's option.
    expect((await reported(['invariant', 'add', '--global', '--', '--store', 'x'])).stderr).toContain('`agents validate`');
  });

  it('reads --color=false as --no-color, as the parse does', async () => {
    expect((await reported(['--color=false', 'invariant', 'list'], {})).stderr).not.toContain('\u001b[');
    expect((await reported(['invariant', 'list'], {})).stderr).toContain('\u001b[');
  });
});
