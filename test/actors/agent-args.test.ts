import { describe, expect, it } from 'vitest';
import { type ActorRequest, PROTOCOL } from '../../src/core/records.ts';
import { agentArgs, codexMcpOff, reportedError } from '../../src/enforce/agent-actor.ts';
import { previewModelActor } from '../../src/enforce/model-actors.ts';

// The real Codex CLI's part is in agent-actor.test.ts; here, what is made of `codex mcp list --json`.
describe("the agent actor turns Codex's MCP servers off", () => {
  const files = { schema: 's.json', last: 'last.txt', policy: 'p.toml' };

  it('turns off every server the list names, enabled or not, before the prompt argument', () => {
    const off = codexMcpOff(
      JSON.stringify([
        { name: 'files', enabled: true },
        { name: 'db-2', enabled: false },
      ]),
    );
    expect(off).toEqual({ ok: true, args: ['-c', 'mcp_servers.files.enabled=false', '-c', 'mcp_servers.db-2.enabled=false'] });
    const args = agentArgs('codex', files, undefined, off.ok ? off.args : []);
    expect(args.indexOf('mcp_servers.files.enabled=false')).toBeGreaterThan(0);
    expect(args.indexOf('mcp_servers.db-2.enabled=false')).toBeLessThan(args.indexOf('--output-schema'));
    expect(args.at(-1)).toBe('-');
    expect(codexMcpOff('[]')).toEqual({ ok: true, args: [] });
  });

  it('--show-prompt names the servers turned off where the run puts them, as the run does not ask codex before it runs', () => {
    const request: ActorRequest = {
      protocol: PROTOCOL,
      plan: { id: '01M8KK5920RS6CGAVDFVYYJ0B4', action: null, project: null, goal: 'g' },
      context: null,
      invariants: [
        { id: '01M8KJT9G0XNWEM589ZS7FV0VT', text: 'Never delete production data', severity: 'error', scope: 'global', tags: [] },
      ],
    };
    const reconciliation = { actor: 'agent', agent: 'codex', timeout_ms: 1000 } as const;
    const [shown] = previewModelActor('agent', reconciliation, request, { root: '/nowhere/.agents', env: { PATH: '' } }).requests;
    const at = shown!.command!.findIndex((a) => a.startsWith('<mcp_servers.NAME.enabled=false'));
    expect(shown!.command![at - 1]).toBe('-c');
    expect(at).toBeLessThan(shown!.command!.indexOf('--output-schema'));
  });

  it('refuses output it cannot read, and a name that could not be said in a -c key', () => {
    expect(codexMcpOff('Error: unknown flag --json').ok).toBe(false);
    expect(codexMcpOff('{"servers": []}').ok).toBe(false);
    expect(codexMcpOff('[{"name": "a.b"}]').ok).toBe(false);
    expect(codexMcpOff('[{"enabled": true}]').ok).toBe(false);
  });
});

describe('the error a failed agent CLI reported', () => {
  it("reads Claude Code's JSON result and Gemini CLI's error object after its stack", () => {
    expect(reportedError('claude', '{"type":"result","is_error":true,"result":"API Error: 400 no such model"}\n', '')).toContain(
      'API Error: 400 no such model',
    );
    expect(reportedError('claude', '{"type":"result","is_error":false,"result":"fine"}', '')).toBeUndefined();
    const stderr = [
      'Error when talking to Gemini API { status: 400 }',
      '    at async Turn.run (file:///x/chunk.js:1:2) {',
      '  status: 400',
      '}',
      JSON.stringify(
        { session_id: 's', error: { type: 'Error', message: '{"error":{"code":400,"message":"no such model"}}', code: 400 } },
        null,
        2,
      ),
    ].join('\n');
    expect(reportedError('gemini', '', stderr)).toBe('Gemini CLI reported an error: 400 no such model');
    expect(reportedError('gemini', '', 'Segmentation fault')).toBeUndefined();
    expect(reportedError('codex', '', stderr)).toBeUndefined();
  });
});
