import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { exampleStore, fileList } from '../helpers/plans.ts';
import { PtySession } from '../helpers/pty.ts';

// `plan sync` asks in a real terminal (tmux): y applies, n changes nothing, Ctrl-C cancels.
const A1 = '01M8KK1KW0KPRSWWKENT2QZ1QM'; // local/code-coverage: "Minimum 80% coverage"
const PLAN = '01M8KM00000000000000000000';
const COPY = '01M8KM00000000000000000001';

/** The example store with a plan promoted from local/code-coverage whose copy still says 75%. */
function driftedStore(): string {
  const root = exampleStore();
  mkdirSync(join(root, 'plans', PLAN));
  writeFileSync(join(root, 'plans', PLAN, 'plan.yaml'), `id: ${PLAN}\naction: local/code-coverage\nproject: myapp\n`);
  writeFileSync(
    join(root, 'plans', PLAN, `${COPY}.yaml`),
    `id: ${COPY}\ntext: Minimum 75% coverage\nsource:\n  kind: action\n  ref: local/code-coverage\n  origin_id: ${A1}\n`,
  );
  return root;
}

function start(root: string) {
  return PtySession.start(['--store', root, 'plan', 'sync', PLAN.slice(0, 12)], { cwd: join(root, '..'), columns: 100 });
}

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('agents plan sync (the confirmation, in a pseudo-terminal)', { timeout: 120_000 }, () => {
  test('y applies the changes', async () => {
    const root = driftedStore();
    const pty = start(root);
    const screen = await pty.waitFor('Apply these changes? [y/N]');
    expect(screen).toContain(`changed  ${COPY} (text)`);
    expect(screen).toContain('"Minimum 75% coverage" → "Minimum 80% coverage"');
    pty.type('y');
    const { code, mode, screen: end } = await pty.exit();
    expect(code).toBe(0);
    expect(mode).toBe('icanon echo');
    expect(end).toContain(`synced plan ${PLAN}: 1 change`);
    expect(readFileSync(join(root, 'plans', PLAN, `${COPY}.yaml`), 'utf8')).toContain('text: Minimum 80% coverage');
  });

  test('n changes nothing, and Ctrl-C cancels with 130', async () => {
    const root = driftedStore();
    const before = fileList(root);
    const bytes = readFileSync(join(root, 'plans', PLAN, `${COPY}.yaml`), 'utf8');
    const no = start(root);
    await no.waitFor('Apply these changes? [y/N]');
    no.type('n');
    const declined = await no.exit();
    expect(declined.code).toBe(1);
    expect(declined.screen).toContain('Nothing synced.');
    const cancel = start(root);
    await cancel.waitFor('Apply these changes? [y/N]');
    cancel.keys('C-c');
    expect((await cancel.exit()).code).toBe(130);
    expect(fileList(root)).toEqual(before);
    expect(readFileSync(join(root, 'plans', PLAN, `${COPY}.yaml`), 'utf8')).toBe(bytes);
  });
});
