import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { invariantYaml } from '../helpers/tmp.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { ConfirmRemove } from '../../src/tui/ConfirmRemove.tsx';
import { FitWidth } from '../../src/tui/FitWidth.tsx';
import { G1, G2, P2, exampleStore, frameHas, resizeTo } from './helpers.ts';

async function ask(id: string, key: string) {
  const service = new InvariantService(exampleStore());
  const info = await service.show(id);
  const answers: boolean[] = [];
  const r = render(<ConfirmRemove info={info} onAnswer={(yes) => answers.push(yes)} />);
  const frame = await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write(key);
  return { frame, answers, r };
}

test('shows text, scope, path and what would come back into effect', async () => {
  const { frame, r } = await ask(P2, 'n');
  expect(frame).toBe(
    [
      `Remove ${P2} from project myapp?`,
      '  Log all changes',
      '  warning',
      `  projects/myapp/${P2}.yaml`,
      'It shadows these now; they come back into effect:',
      `  global ${G2}  global/${G2}.yaml`,
      'Remove this invariant? [y/N]',
    ].join('\n'),
  );
  r.unmount();
});

test('an invariant that shadows nothing says so', async () => {
  const { frame, r } = await ask(G1, 'n');
  expect(frame).toContain('It shadows nothing; no other copy comes back into effect.');
  r.unmount();
});

test('an invariant that shadows nothing of the files read, another file invalid, does not say nothing comes back', async () => {
  const root = exampleStore();
  writeFileSync(join(root, 'projects/myapp/01M8KJW430VF8WCABSB8RTQ9ZZ.yaml'), 'id: 01M8KJW430VF8WCABSB8RTQ9ZZ\ntext: [broken\n');
  const info = await new InvariantService(root).show(G1);
  const r = render(<ConfirmRemove info={info} onAnswer={() => {}} />);
  const frame = await frameHas(r.lastFrame, 'Remove this invariant? [y/N]', 'It shadows nothing of the files read;');
  expect(frame).not.toContain('no other copy comes back');
  r.unmount();
});

test.each([
  ['y', true],
  ['Y', true],
  ['n', false],
  ['\r', false],
  ['\u001b', false],
])('key %j answers %s', async (key, expected) => {
  const { answers, r } = await ask(G1, key);
  await expect.poll(() => answers, { timeout: 5000 }).toEqual([expected]);
  r.unmount();
});

test('the longest text on a short terminal is cut with "…": the title and the question stay on screen, the frame within its rows', async () => {
  const root = exampleStore();
  const text = 'Keep every record of every change. '.repeat(60).slice(0, 2000).trim();
  writeFileSync(join(root, `global/${G1}.yaml`), invariantYaml(G1, text));
  const info = await new InvariantService(root).show(G1);
  for (const [columns, rows] of [
    [80, 24],
    [40, 10],
  ] as const) {
    const r = render(<ConfirmRemove info={info} width={columns} rows={rows} onAnswer={() => {}} />);
    const frame = await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    expect(lines.join(' ')).toContain(`Remove ${G1} from global?`);
    expect(lines.at(-1)).toBe('Remove this invariant? [y/N]');
    expect(frame).toMatch(/…$/m);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    r.unmount();
  }
});

test('a text many copies hold: the copies it shadows show as many as fit, the rest counted; the title and the question stay on screen', async () => {
  const root = exampleStore();
  const copies = Array.from({ length: 30 }, (_, i) => `01M8KM00000000000000000A${String(i).padStart(2, '0')}`);
  for (const id of copies) writeFileSync(join(root, `global/${id}.yaml`), invariantYaml(id, 'Log all changes'));
  const info = await new InvariantService(root).show(P2);
  expect(info.shadow.shadows).toHaveLength(31);
  for (const [columns, rows] of [
    [80, 24],
    [40, 10],
  ] as const) {
    const r = render(<ConfirmRemove info={info} width={columns} rows={rows} onAnswer={() => {}} />);
    const frame = await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    expect(lines[0]).toContain('Remove');
    expect(lines.at(-1)).toBe('Remove this invariant? [y/N]');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    const listed = lines.filter((l) => l.startsWith('  global ')).length;
    const counted = Number(/… and (\d+) more/.exec(frame)?.[1]);
    expect(listed).toBeGreaterThan(0);
    expect(listed + counted).toBe(31);
    r.unmount();
  }
});

test('hidden behind the too-small notice, the question takes no key: a y pressed blind removes nothing, and is answered once it shows', async () => {
  const service = new InvariantService(exampleStore());
  const info = await service.show(P2);
  const answers: boolean[] = [];
  const r = render(
    <FitWidth>{(width, rows) => <ConfirmRemove info={info} width={width} rows={rows} onAnswer={(yes) => answers.push(yes)} />}</FitWidth>,
  );
  const resize = (columns: number, rows: number) => resizeTo(r.stdout, columns, rows);
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  resize(15, 4);
  await frameHas(r.lastFrame, '15×4');
  r.stdin.write('y');
  await new Promise((done) => setTimeout(done, 100));
  expect(answers).toEqual([]);
  resize(80, 24);
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('n');
  await expect.poll(() => answers).toEqual([false]);
  r.unmount();
});

test('on a terminal of 5 to 7 rows the title naming the invariant, its text and the question stay on screen: the file, then the severity give way', async () => {
  const info = await new InvariantService(exampleStore()).show(P2);
  for (const [columns, rows] of [
    [80, 6],
    [40, 7],
    [20, 5],
  ] as const) {
    const r = render(<ConfirmRemove info={info} width={columns} rows={rows} onAnswer={() => {}} />);
    const frame = await frameHas(r.lastFrame, 'invariant? [y/N]');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    expect(lines[0]).toMatch(/^Remove 01M8KJZ/);
    expect(frame).toContain('Log all changes');
    expect(lines.slice(-2).join(' ')).toMatch(/Remove this invariant\? \[y\/N\]$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    r.unmount();
  }
});

test('on a short, narrow terminal what comes back into effect stays before the severity and the file: the consequence of the answer', async () => {
  const info = await new InvariantService(exampleStore()).show(P2);
  for (const [columns, rows] of [
    [25, 8],
    [30, 9],
    [40, 7],
    [80, 7],
  ] as const) {
    const r = render(<ConfirmRemove info={info} width={columns} rows={rows} onAnswer={() => {}} />);
    const frame = await frameHas(r.lastFrame, '[y/N]');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    expect(lines[0]).toMatch(/^Remove\b/);
    // The copy that comes back, under its heading, whole on its row where the terminal has the columns.
    const copy = lines.findIndex((l) => l.startsWith(`  global ${G2.slice(0, columns - 12)}`));
    expect(copy, `${columns}×${rows}:\n${frame}`).toBeGreaterThan(1);
    expect(lines[copy - 1]).toMatch(/into effect:$/);
    r.unmount();
  }
});
