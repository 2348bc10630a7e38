// MCP check_action without an action to check: the same mistake as `agents guard try` without
// --path, --command or --tool, so the same error code (docs/json-output.md).
import { describe, expect, it } from 'vitest';
import { CHECK_ACTION } from '../../src/mcp/check-action.ts';
import type { ToolContext } from '../../src/mcp/tool.ts';

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
