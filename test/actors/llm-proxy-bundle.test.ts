// The command line's bundle takes undici from the ES module build (scripts/build.mjs): the llm actor behind a
// proxy, through the real `bin/agents.js`.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { startConnectProxy } from '../helpers/connect-proxy.ts';
import { type ModelRequest, startModelServer } from '../helpers/model-server.ts';
import { EXAMPLE_PLAN, exampleStore, records, type EnforcementFile } from '../helpers/plans.ts';

const asked = (r: ModelRequest) => [...r.text.matchAll(/\b[0-9A-HJKMNP-TV-Z]{26}\b/g)].map((m) => m[0]).filter((id) => id !== EXAMPLE_PLAN);

describe('the llm actor behind a proxy, from the command line', () => {
  it('loads undici from the ES module build and sends through the proxy', async () => {
    const server = await startModelServer((req) => ({
      text: JSON.stringify({ results: [...new Set(asked(req))].map((id) => ({ invariant_id: id, enforced: true, response: 'ok' })) }),
    }));
    const proxy = await startConnectProxy();
    try {
      const root = exampleStore();
      writeFileSync(
        join(root, 'config.yaml'),
        `version: 1\nreconciliation:\n  actor: llm\n  provider: openai\n  model: m\n  base_url: ${server.url}/v1\n  timeout_ms: 20000\n`,
      );
      const env = { ...process.env, HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '', CI: 'true', NO_COLOR: '1' };
      const child = spawn(process.execPath, [BIN, '--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const code = await new Promise<number | null>((res) => child.on('close', res));
      expect(code, stderr).toBe(0);
      expect(proxy.tunnels).toEqual([new URL(server.url).host]);
      const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
      expect(run!.records.every((r) => r.enforced)).toBe(true);
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 60_000);
});
