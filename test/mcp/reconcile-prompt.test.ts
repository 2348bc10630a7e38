// The reconcile_plan prompt's text, as a client shows it: what an argument brings in is escaped as the CLI's
// `plan strategize --show-prompt` prints it, never a raw ESC or RLO.
import { describe, expect, it } from 'vitest';
import { reconcilePlanPrompt } from '../../src/mcp/reconcile.ts';
import { newToolContext } from '../../src/mcp/tools.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';

describe('the reconcile_plan prompt', () => {
  it('escapes the control and bidirectional characters of its context, and keeps its lines', async () => {
    const ctx = newToolContext(new InvariantService(exampleStore()));
    const prompt = await reconcilePlanPrompt(ctx, { plan: EXAMPLE_PLAN, context: 'step one\nstep \u001b[31mtwo\u202e\u0007' });
    const text = prompt.messages[0]!.content.text;
    expect(text).not.toMatch(/[\u001b\u202e\u0007]/);
    expect(text).toContain('step one\nstep \\u001b[31mtwo\\u202e\\u0007');
  });
});
