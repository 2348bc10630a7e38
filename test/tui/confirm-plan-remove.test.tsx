import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { ConfirmPlanRemove } from '../../src/tui/ConfirmPlanRemove.tsx';
import { frameHas } from './helpers.ts';

const PLAN = { id: '01M8KK5920RS6CGAVDFVYYJ0B4', project: 'myapp', action: 'local/cov', goal: 'Raise coverage' };
const QUESTION = 'Remove this plan with its invariants, records and waivers? [y/N]';

async function ask(key: string, plan: typeof PLAN | { id: string } = PLAN) {
  const answers: boolean[] = [];
  const r = render(<ConfirmPlanRemove plan={plan} width={100} onAnswer={(yes) => answers.push(yes)} />);
  const frame = await frameHas(r.lastFrame, QUESTION);
  r.stdin.write(key);
  // Esc is told from the start of an escape sequence only after a pause: the answer is polled for, not read at once.
  await expect.poll(() => answers.length, { timeout: 5000 }).toBe(1);
  r.unmount();
  return { frame, answers };
}

test('names the plan, its project, action and goal, then asks y/N', async () => {
  const { frame, answers } = await ask('y');
  expect(frame).toBe([`Plan ${PLAN.id} (project myapp, action local/cov)`, 'Raise coverage', QUESTION].join('\n'));
  expect(answers).toEqual([true]);
});

test('n, Enter and Esc keep the plan; a plan with no project, action or goal is named by its id alone', async () => {
  for (const key of ['n', '\r', '\u001b']) expect((await ask(key)).answers).toEqual([false]);
  expect((await ask('n', { id: PLAN.id })).frame).toBe([`Plan ${PLAN.id}`, QUESTION].join('\n'));
});
