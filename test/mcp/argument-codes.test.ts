// The MCP tools give a mistake the error code the CLI gives the same one (docs/json-output.md): check_action without
// an action to check is `agents guard try` without --path, --command or --tool.
import { describe, expect, it } from 'vitest';
import { checkArgs } from '../../src/mcp/args.ts';
import { CHECK_ACTION } from '../../src/mcp/check-action.ts';
import type { ToolContext } from '../../src/mcp/tool.ts';
import { TOOLS } from '../../src/mcp/tools.ts';

describe('check_action arguments', () => {
  it('only content is missing-option naming path, command and tool', async () => {
    const error = await CHECK_ACTION.run({ content: 'DROP TABLE users;' }, {} as ToolContext).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      exitCode: 2,
      code: 'missing-option',
      detail: { command: 'check_action', options: ['path', 'command', 'tool'] },
    });
  });
});

// Two targets at once, or none where a tool needs one: the CLI's two scope flags and no scope flag, said with its codes.
describe('list_invariants and effective_invariants targets', () => {
  const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
  const refusal = (name: string, args: Record<string, string | boolean>) =>
    tool(name)
      .run(args, {} as ToolContext)
      .then(
        () => undefined,
        (e: unknown) => e,
      );

  it('two are conflicting-options naming them; none is missing-option naming the targets', async () => {
    // Said as docs/mcp.md says each: list_invariants takes at most one target (none lists the whole store).
    expect(await refusal('list_invariants', { global: true, project: 'myapp' })).toMatchObject({
      exitCode: 2,
      code: 'conflicting-options',
      message: expect.stringContaining('give at most one of'),
      detail: { options: ['global', 'project'] },
    });
    expect(await refusal('effective_invariants', { project: 'myapp', plan: '01M8' })).toMatchObject({
      code: 'conflicting-options',
      message: expect.stringContaining('give exactly one of'),
      detail: { options: ['project', 'plan'] },
    });
    expect(await refusal('effective_invariants', {})).toMatchObject({
      exitCode: 2,
      code: 'missing-option',
      detail: { command: 'effective_invariants', options: ['project', 'plan', 'path'] },
    });
  });
});

// The schema's own refusals: a missing argument, an unknown one, a value outside an enum, as the CLI's missing
// argument, unknown option and invalid value.
describe('arguments that do not fit the schema', () => {
  const schemaOf = (name: string) => TOOLS.find((t) => t.name === name)!.inputSchema;
  const refusal = (name: string, args: Record<string, unknown>) =>
    checkArgs(name, schemaOf(name), args).then(
      () => undefined,
      (e: unknown) => e,
    );

  it('missing is missing-argument, unknown is unknown-option with the closest names, outside an enum is invalid-value', async () => {
    expect(await refusal('show_invariant', {})).toMatchObject({
      exitCode: 2,
      code: 'missing-argument',
      detail: { command: 'show_invariant', argument: 'id' },
    });
    expect(await refusal('effective_invariants', { projet: 'myapp' })).toMatchObject({
      exitCode: 2,
      code: 'unknown-option',
      detail: { arguments: ['projet'], suggestions: ['project'] },
    });
    const violation = { plan: '01M8', invariant: '01M8', details: 'deleted a table' };
    expect(await refusal('record_violation', { ...violation, severity: 'eror' })).toMatchObject({
      exitCode: 2,
      code: 'invalid-value',
      detail: { option: 'severity', value: 'eror', suggestions: ['error'] },
    });
  });
});

describe('text that is not valid Unicode', () => {
  it('an argument holding half of a surrogate pair is refused, naming it, never written as U+FFFD', async () => {
    const schema = TOOLS.find((t) => t.name === 'record_violation')!.inputSchema;
    const args = { plan: '01M8', invariant: '01M8', details: 'dropped a\uD800 table' };
    const error = await checkArgs('record_violation', schema, args).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ exitCode: 2, code: 'usage', detail: { argument: 'details' } });
    // A whole pair (an emoji) is text like any other.
    expect(await checkArgs('record_violation', schema, { ...args, details: 'dropped a 😀 table' })).toMatchObject({
      details: 'dropped a 😀 table',
    });
  });
});
