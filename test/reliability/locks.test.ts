import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agents, BIN } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const yamlFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.yaml'));
const longAgo = new Date(Date.now() - 60_000);

describe('scope locks', () => {
  it('clears the lock of a dead process with a message on stderr, then writes', async () => {
    const store = testStore();
    const pid = deadPid();
    writeFileSync(join(store, 'global/.lock'), `${pid} ${hostname()} 2026-11-29T12:00:00.000Z\n`);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'Never delete production data']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`agents: cleared a stale lock ${join(store, 'global/.lock')}: process ${pid} on ${hostname()} is gone`);
    expect(existsSync(join(store, 'global/.lock'))).toBe(false);
    expect(yamlFiles(join(store, 'global'))).toHaveLength(1);
  });

  it('clears an old lock that names no process', async () => {
    const store = testStore({ 'projects/app/.lock': '' });
    utimesSync(join(store, 'projects/app/.lock'), longAgo, longAgo);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--project', 'app', 'Run the tests']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`cleared a stale lock ${join(store, 'projects/app/.lock')}: it names no process and is older than 10 s`);
  });

  it('waits for the lock of a live process, then stops with exit 2 and writes nothing', () => {
    const store = testStore();
    // This test's own process is alive and holds the lock: the writer is a process of its own.
    writeFileSync(join(store, 'global/.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const r = agents(['--store', store, 'invariant', 'add', '--global', 'Never delete production data'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '300' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `global is locked by process ${process.pid} on ${hostname()} (${join(store, 'global/.lock')}); gave up after 300 ms`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(yamlFiles(join(store, 'global'))).toEqual([]);
    expect(readdirSync(join(store, 'global')).sort()).toEqual(['.lock']);
  });

  // Linux: /proc tells when the writer listens for the stop signals, which it does only while it waits; sent before,
  // SIGTERM would end it as it starts. Node catches SIGTERM from its start (to restore the terminal): SIGHUP's bit tells.
  it.skipIf(process.platform !== 'linux')(
    "SIGTERM while a writer waits for a live process's lock: one line naming the lock on stderr, exit 143, nothing written",
    async () => {
      const store = testStore();
      writeFileSync(join(store, 'global/.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
      const child = spawn(process.execPath, [BIN, '--store', store, '--format', 'json', 'invariant', 'add', '--global', 'Keep it'], {
        env: { ...process.env, AGENTS_LOCK_TIMEOUT_MS: '20000', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // SigCgt, the signals it catches, holds SIGHUP's bit (1) once it waits.
      const catches = () => {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        return BigInt(`0x${/^SigCgt:\s*([0-9a-f]+)/m.exec(status)![1]}`) & 1n;
      };
      const until = Date.now() + 15_000;
      while (catches() === 0n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
      expect(JSON.parse(stdout).error).toMatchObject({ code: 'cancelled' });
      expect(stderr).toContain(join(store, 'global/.lock'));
      // The stop's own line; a wait that lasted a second (a loaded machine) also said so before it.
      expect(
        stderr
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('agents: waiting for ')),
      ).toHaveLength(1);
      expect(yamlFiles(join(store, 'global'))).toEqual([]);
    },
  );

  it('clears the lock of a process whose number was reused: the running process of that number started after the lock was taken', async () => {
    // A writer killed, then its number handed out again (numbers wrap around): the lock's number may now be a live
    // process, the writer itself here, which took no lock.
    const store = testStore();
    const dayBefore = new Date(Date.now() - 86_400_000).toISOString();
    writeFileSync(join(store, 'global/.lock'), `${process.pid} ${hostname()} ${dayBefore}\n`);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'Never delete production data'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '5000' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `agents: cleared a stale lock ${join(store, 'global/.lock')}: process ${process.pid} on ${hostname()} is gone`,
    );
    expect(readdirSync(join(store, 'global')).filter((n) => !n.endsWith('.yaml'))).toEqual([]);
    expect(yamlFiles(join(store, 'global'))).toHaveLength(1);
    // validate judges it the same way, and --fix removes it.
    writeFileSync(join(store, 'global/.lock'), `${process.pid} ${hostname()} ${dayBefore}\n`);
    const v = await runAgents(['--store', store, '--format', 'json', 'validate', '--fix']);
    expect(JSON.parse(v.stdout).fixes).toContainEqual(
      expect.objectContaining({ file: 'global/.lock', action: 'remove-stale-lock', done: true }),
    );
    expect(existsSync(join(store, 'global/.lock'))).toBe(false);
  });

  it('never clears a lock of another host (it cannot tell whether that process lives)', async () => {
    const store = testStore();
    const pid = deadPid();
    writeFileSync(join(store, 'global/.lock'), `${pid} some-other-host 2026-11-29T12:00:00.000Z\n`);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'x rule'], { env: { AGENTS_LOCK_TIMEOUT_MS: '200' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('locked by process');
    expect(existsSync(join(store, 'global/.lock'))).toBe(true);
    // Under --format json the refusal has its own code, so a script can tell "busy" from a mistake and try again.
    const json = await runAgents(['--store', store, '--format', 'json', 'invariant', 'add', '--global', 'x rule'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '0' },
    });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'locked',
      detail: { lock: join(store, 'global/.lock'), pid, host: 'some-other-host', waited_ms: 0, elsewhere: true },
    });
    // A live holder of this host is not: its lock is taken back once that process is gone.
    writeFileSync(join(store, 'global/.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const here = await runAgents(['--store', store, '--format', 'json', 'invariant', 'add', '--global', 'x rule'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '0' },
    });
    expect(JSON.parse(here.stdout).error).toMatchObject({ code: 'locked', detail: { pid: process.pid, elsewhere: false } });
  });

  it('names the lock from the top of the repository the store is in, where the user who deletes it stands', async () => {
    const top = tempDir('agents-lock-top-');
    // A folder `.git` marks the top: found as git finds it, without a git process.
    mkdirSync(join(top, '.git'));
    const store = join(top, 'tools/store');
    mkdirSync(join(store, 'global'), { recursive: true });
    writeFileSync(join(store, 'global/.lock'), `1 some-other-host 2026-11-29T12:00:00.000Z\n`);
    const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'add', '--global', 'x rule'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '0' },
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'locked', detail: { lock: 'tools/store/global/.lock' } });
  });

  it('never clears a lock of another pid namespace of this host (another container sharing the host name and the store)', () => {
    const ns = readlinkSync('/proc/self/ns/pid');
    // A writer in a pid namespace of its own, as a second container of a Kubernetes pod is: same host name, its own numbers.
    const probe = spawnSync('unshare', ['-r', '--pid', '--fork', '--mount-proc', 'true']);
    if (probe.status !== 0) {
      console.log('skipped: cannot make a pid namespace here (needs unshare)');
      return;
    }
    const inContainer = (...args: string[]) =>
      spawnSync('unshare', ['-r', '--pid', '--fork', '--mount-proc', process.execPath, BIN, ...args], {
        encoding: 'utf8',
        env: { ...process.env, CI: 'true', AGENTS_LOCK_TIMEOUT_MS: '300' },
      });
    // This test's process holds the lock; in the other namespace no process has its number.
    const store = testStore();
    const lock = `${process.pid} ${hostname()} ${new Date().toISOString()} ${ns}\n`;
    writeFileSync(join(store, 'global/.lock'), lock);
    const r = inContainer('--store', store, '--format', 'json', 'invariant', 'add', '--global', 'Never delete production data');
    expect(r.status, r.stderr).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'locked', detail: { pid: process.pid, host: hostname(), elsewhere: true } });
    expect(readFileSync(join(store, 'global/.lock'), 'utf8')).toBe(lock);
    expect(yamlFiles(join(store, 'global'))).toEqual([]);
    // validate does not call it stale either, and --fix keeps it.
    const v = inContainer('--store', store, '--format', 'json', 'validate', '--fix');
    expect(JSON.parse(v.stdout).diagnostics).toEqual([]);
    expect(readFileSync(join(store, 'global/.lock'), 'utf8')).toBe(lock);
    // A lock of a dead process of this namespace is still cleared.
    writeFileSync(join(store, 'global/.lock'), `${deadPid()} ${hostname()} 2026-11-29T12:00:00.000Z ${ns}\n`);
    const own = agents(['--store', store, 'invariant', 'add', '--global', 'Never delete production data']);
    expect(own.code, own.stderr).toBe(0);
    expect(existsSync(join(store, 'global/.lock'))).toBe(false);
  });

  it('clears the lock of a zombie: a writer that exited (killed) and whose parent has not collected it yet', async () => {
    // `sleep 0.3` exits once the shell that started it has become `sleep 10`, which never collects it (a shell
    // still running would: it reaps a finished background job before its next command).
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 10'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      const state = () => readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0];
      for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()).toBe('Z');
      const store = testStore();
      writeFileSync(join(store, 'global/.lock'), `${pid} ${hostname()} ${new Date().toISOString()}\n`);
      const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'Never delete production data'], {
        env: { AGENTS_LOCK_TIMEOUT_MS: '2000' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`cleared a stale lock ${join(store, 'global/.lock')}: process ${pid} on ${hostname()} is gone`);
      expect(yamlFiles(join(store, 'global'))).toHaveLength(1);
    } finally {
      parent.kill();
    }
  });

  it('clears a lock naming a process number no system gives (a lock written by hand): never waited on', async () => {
    const store = testStore();
    writeFileSync(join(store, 'global/.lock'), `9999999999 ${hostname()} 2026-11-29T12:00:00.000Z\n`);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'Never delete production data'], {
      env: { AGENTS_LOCK_TIMEOUT_MS: '2000' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`cleared a stale lock ${join(store, 'global/.lock')}: process 9999999999`);
    expect(yamlFiles(join(store, 'global'))).toHaveLength(1);
  });

  it('holds remove to the same lock', () => {
    const store = testStore();
    const added = agents(['--store', store, '--format', 'json', 'invariant', 'add', '--global', 'Keep me']);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    writeFileSync(join(store, 'global/.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const r = agents(['--store', store, 'invariant', 'remove', id, '--yes'], { env: { AGENTS_LOCK_TIMEOUT_MS: '200' } });
    expect(r.code).toBe(2);
    expect(yamlFiles(join(store, 'global'))).toEqual([`${id}.yaml`]);
  });

  it('refuses a malformed AGENTS_LOCK_TIMEOUT_MS with exit 2', async () => {
    const store = testStore();
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'x rule'], { env: { AGENTS_LOCK_TIMEOUT_MS: 'soon' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AGENTS_LOCK_TIMEOUT_MS="soon" is not a number of milliseconds');
    expect(yamlFiles(join(store, 'global'))).toEqual([]);
  });

  it('a lock planted as a link to a file outside the store stops the writer at once (exit 3) without reading, printing or touching that file; validate --fix removes the link', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), '4242 TOPSECRET-CONTENT\n');
    const store = testStore();
    symlinkSync(join(outside, 'secret.txt'), join(store, 'global/.lock'));
    lutimesSync(join(store, 'global/.lock'), longAgo, longAgo);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'x rule']);
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).not.toContain('TOPSECRET');
    expect(r.stderr).toContain('global/.lock is a symbolic link, not a writer');
    expect(yamlFiles(join(store, 'global'))).toEqual([]);
    const fix = await runAgents(['--store', store, 'validate', '--fix']);
    expect(fix.stdout + fix.stderr).not.toContain('TOPSECRET');
    expect((await runAgents(['--store', store, 'invariant', 'add', '--global', 'x rule'])).code).toBe(0);
    expect(yamlFiles(join(store, 'global'))).toHaveLength(1);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('4242 TOPSECRET-CONTENT\n');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });
});

describe('the breaker of a stale lock', () => {
  it('a breaker left by a writer killed while clearing a stale lock is removed by the next writer', async () => {
    const store = testStore();
    writeFileSync(join(store, 'global/.lock.break'), `${deadPid()} ${hostname()} 2026-11-29T12:00:00.000Z\n`);
    const r = await runAgents(['--store', store, 'invariant', 'add', '--global', 'x rule']);
    expect(r.code).toBe(0);
    expect(readdirSync(join(store, 'global')).filter((n) => n.startsWith('.'))).toEqual([]);
  });
  it('validate --fix waits out a breaker that names no process yet (its maker died before writing it), then clears the lock', async () => {
    const store = testStore();
    writeFileSync(join(store, 'global/.lock'), `${deadPid()} ${hostname()} 2026-11-29T12:00:00.000Z\n`);
    // The command's modules loaded first, so that the breaker's age below is what --fix meets.
    expect((await runAgents(['--store', store, 'validate'])).code).toBe(0);
    // Made just before its writer was killed: empty, and 3.5 s old, so that it stands a second and a half more.
    const breaker = join(store, 'global/.lock.break');
    writeFileSync(breaker, '');
    const past = (Date.now() - 3_500) / 1000;
    utimesSync(breaker, past, past);
    const fix = await runAgents(['--store', store, '--format', 'json', 'validate', '--fix']);
    expect(fix.code).toBe(0);
    expect(JSON.parse(fix.stdout).fixes).toContainEqual(
      expect.objectContaining({ file: 'global/.lock', action: 'remove-stale-lock', done: true }),
    );
    expect(readdirSync(join(store, 'global')).filter((n) => n.startsWith('.lock'))).toEqual([]);
    const after = await runAgents(['--store', store, '--format', 'json', 'validate']);
    expect(JSON.parse(after.stdout).diagnostics).toEqual([]);
  });
});
