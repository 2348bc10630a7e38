import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished } from 'vitest';
import { BIN, REPO } from './cli.ts';
import { GIT_ENV } from './git.ts';

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
  /** Resolves with the next notification of the kind, or rejects after `ms`. */
  next: (kind: 'updated' | 'list_changed', ms?: number, match?: (uri: string | undefined) => boolean) => Promise<string | undefined>;
  /** Notifications received so far, in order: `updated <uri>` or `list_changed`. */
  seen: string[];
}

/**
 * Starts the built CLI's `agents mcp` on `store` through the SDK's own
 * client and stdio transport, connected (initialize done); closed when the
 * test finishes, or with `session.client.close()` by a caller that shares it
 * (`closing: 'caller'`, as a file's afterAll does).
 */
export async function startMcp(
  store: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
  closing: 'test' | 'caller' = 'test',
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--store', store, 'mcp', ...extraArgs],
    cwd: REPO,
    env: { ...(process.env as Record<string, string>), ...GIT_ENV, NO_COLOR: '1', CI: 'true', AGENTS_MCP_SETTLE_MS: '100', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'agents-test', version: '1.0.0' });
  const seen: string[] = [];
  const waiters: { kind: string; match: (uri: string | undefined) => boolean; resolve: (u: string | undefined) => void }[] = [];
  const deliver = (kind: string, uri: string | undefined) => {
    seen.push(uri === undefined ? kind : `${kind} ${uri}`);
    for (const w of [...waiters]) {
      if (w.kind === kind && w.match(uri)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(uri);
      }
    }
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => deliver('updated', n.params.uri));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => deliver('list_changed', undefined));
  await client.connect(transport);
  if (closing === 'test')
    onTestFinished(async () => {
      await client.close();
    });
  return {
    client,
    stderr: () => err,
    seen,
    next: (kind, ms = 10_000, match = () => true) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${kind} notification within ${ms} ms (seen: ${seen.join(', ') || 'none'})`));
        }, ms);
        const waiter = {
          kind,
          match,
          resolve: (u: string | undefined) => {
            clearTimeout(timer);
            resolve(u);
          },
        };
        waiters.push(waiter);
      }),
  };
}

/** The `agents/error` data of a tool's error result. */
export function errorOf(result: CallToolResult): {
  code: string;
  message: string;
  hint: string | null;
  exit_code: number;
  detail: Record<string, unknown> | null;
  diagnostics: { code: string; file: string; line: number; col: number }[];
} {
  return (result._meta as Record<string, ReturnType<typeof errorOf>>)['agents/error']!;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
