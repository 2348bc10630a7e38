import { EventEmitter } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { GIT_ENV } from '../helpers/git.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';
import { Keys, settle } from '../tui/helpers.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 100));

/**
 * Runs `agents ...args` in this process on a terminal, pressing `keys` one at a time once the review reads them (a
 * function in their place runs there, given what the terminal has shown so far).
 */
async function review(
  top: string,
  args: string[],
  keys: (string | ((shown: () => string) => Promise<void>))[],
  env0: Record<string, string> = {},
) {
  const stdin = new Keys();
  let stdout = '';
  let stderr = '';
  const env: Record<string, string | undefined> = { ...process.env, ...GIT_ENV, NO_COLOR: '1', TERM: 'xterm', ...env0 };
  delete env.CI;
  delete env.AGENTS_STORE;
  const run = main(['import', ...args], {
    stdout: Object.assign(new EventEmitter(), { isTTY: true, columns: 100, rows: 30, write: (c: string) => (stdout += c) }),
    stderr: { write: (c: string) => (stderr += c) },
    stdin: stdin as unknown as NodeJS.ReadableStream,
    env,
    cwd: top,
  });
  for (let i = 0; i < 500 && stdin.listenerCount('readable') === 0; i++) await tick();
  // Ink installs a screen's key handler in an effect, after the frame: each key waits for React's effects to flush
  // (settle) and for a while beyond, so that it reaches the handler of the state the key before it made.
  for (const k of keys) {
    if (typeof k === 'function') {
      await k(() => stdout);
      continue;
    }
    stdin.write(k);
    await settle();
    await tick();
    await settle();
  }
  const code = await run;
  return { code, stdout, stderr };
}

describe('the report after the review', () => {
  it('says what the review wrote: the dropped rule, the edited text and its near-duplicates, the scope it moved to', async () => {
    const top = tempDir('agents-import-review-');
    // Outside a git repository: the import walks the folders itself, and the test starts no process.
    writeTree(top, {
      // Near the second rule as the file says it, and near it as the review edits it.
      '.agents/global/01K0000000000000000000000A.yaml': 'id: 01K0000000000000000000000A\ntext: Use tabs\nseverity: error\n',
      '.agents/global/01K0000000000000000000000B.yaml': 'id: 01K0000000000000000000000B\ntext: Use spaces\nseverity: error\n',
      '.agents/projects/': null,
      '.agents/actions/': null,
      '.agents/plans/': null,
      'apps/web/AGENTS.md': '## Rules\n\n- Never commit secrets.\n- Use tabs.\n- Run the linter.\n',
    });
    // Drop the first, edit the second, move the third to global (p cycles global first), then Enter.
    const r = await review(top, ['--format', 'json'], [' ', '\u001B[B', 'e', '\u0015', 'Use spaces.', '\r', '\u001B[B', 'p', '\r']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout.slice(r.stdout.indexOf('{\n'))) as {
      candidates: {
        line: number;
        text: string;
        status: string;
        scope: { kind: string; project?: string };
        near_duplicates: { id: string }[];
      }[];
      written: { invariants: { n: number }[] };
    };
    expect(doc.written.invariants.length).toBe(2);
    expect(doc.candidates.map((c) => [c.line, c.status, c.text, c.scope.kind])).toEqual([
      [3, 'dropped', 'Never commit secrets.', 'project'],
      [4, 'new', 'Use spaces.', 'project'],
      [5, 'new', 'Run the linter.', 'global'],
    ]);
    // The edited text's near-duplicates, not those of the text the file said.
    expect(doc.candidates.map((c) => c.near_duplicates.map((n) => n.id))).toEqual([[], ['01K0000000000000000000000B'], []]);
  });

  it("a write refused for another writer's lock opens the review again as it was left, the refusal said: Enter then writes the edits made", async () => {
    const top = tempDir('agents-import-review-');
    writeTree(top, {
      '.agents/global/': null,
      '.agents/projects/': null,
      'AGENTS.md': '## Rules\n\n- Never commit secrets.\n- Use tabs.\n- Run the linter.\n',
    });
    // A live writer's lock (this process) on the scope the rules go to.
    const lock = join(top, '.agents/global/.lock');
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    // Ink draws its last frame only, under CI: the review has opened again once the terminal's pastes are marked twice.
    const reopened = (shown: () => string) =>
      vi.waitFor(() => expect(shown().split('\u001b[?2004h').length).toBe(3), { timeout: 10_000, interval: 20 });
    // Edit the first rule, drop the second; Enter is refused. Once the lock is gone, Enter again.
    const r = await review(
      top,
      ['--format', 'json'],
      ['e', '\u0015', 'Never commit a secret.', '\r', '\u001B[B', ' ', '\r', reopened, async () => rmSync(lock), '\r'],
      { AGENTS_LOCK_TIMEOUT_MS: '20' },
    );
    expect(r.code).toBe(0);
    // The review opened again says why.
    const again = r.stdout.slice(r.stdout.lastIndexOf('Import 3 rules'));
    expect(again).toContain('✗ global is locked by');
    const doc = JSON.parse(r.stdout.slice(r.stdout.indexOf('{\n'))) as {
      candidates: { text: string; status: string; severity: string }[];
      written: { invariants: { path: string }[] };
    };
    expect(doc.candidates.map((c) => [c.status, c.text, c.severity])).toEqual([
      ['new', 'Never commit a secret.', 'error'],
      ['dropped', 'Use tabs.', 'error'],
      ['new', 'Run the linter.', 'error'],
    ]);
    const texts = doc.written.invariants.map((w) => /text: (.*)/.exec(readFileSync(join(top, '.agents', w.path), 'utf8'))![1]);
    expect(texts.sort()).toEqual(['Never commit a secret.', 'Run the linter.']);
  });
});
