// A policy source that asks for a password: git would ask for it on the terminal (it opens /dev/tty whatever
// its stdin is), where no one answers a commit hook, an agent's shell or a run under --no-input. Two things keep
// it from asking: a git the fetch can stop runs in a session of its own (no terminal), and every git runs with
// GIT_TERMINAL_PROMPT=0; either alone passes this test.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PtySession } from '../helpers/pty.ts';
import { tempDir } from '../helpers/tmp.ts';
import { consumer } from './repos.ts';

describe('a policy source behind a password', () => {
  it('fails the fetch in a real terminal instead of asking for a user name and waiting', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="policy"' }).end();
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/policy.git`;
      const app = consumer(tempDir(), `  - url: ${url}\n    ref: v1\n`);
      const pty = PtySession.start(['--no-input', 'extends', 'update'], { cwd: app });
      // Waiting at a prompt, it would never end: the screen would show "Username for …" and no exit.
      const screen = await pty.waitFor(/\[exit \d+\]/, 30_000);
      expect(screen).toContain('[exit 2]');
    } finally {
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    }
  }, 60_000);
});
