// At 25 columns every line the TUI cuts ends in "…" or wraps, and a key line drops whole keys rather than cut one.
import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { formHint } from '../../src/tui/add-form-steps.ts';
import { AddForm } from '../../src/tui/AddForm.tsx';
import { Browser } from '../../src/tui/Browser.tsx';
import { exampleStore, frameHas, frameMatches } from './helpers.ts';

const lines = (frame: string) => frame.split('\n');

test('"No invariants match the filter." is cut with "…" on a list of one row, and wraps whole where the list has two', async () => {
  for (const [rows, expected] of [
    [8, ['No invariants match the…']],
    [12, ['No invariants match the', 'filter.']],
  ] as const) {
    const r = render(
      <Browser service={new InvariantService(exampleStore())} size={{ columns: 25, rows }} onQuit={() => {}} onError={() => {}} />,
    );
    await frameHas(r.lastFrame, 'shown of 6');
    r.stdin.write('/');
    await frameHas(r.lastFrame, 'Esc clear it');
    r.stdin.write('zzzz');
    await frameHas(r.lastFrame, '0 shown of 6');
    r.stdin.write('\r');
    const frame = await frameHas(r.lastFrame, 'No invariants match');
    const at = lines(frame).findIndex((l) => l.startsWith('No invariants match'));
    expect(lines(frame).slice(at, at + expected.length), `${rows} rows`).toEqual(expected);
    r.unmount();
  }
});

test('the scope picker\'s question is cut with "…" at 25 columns, the position after it where it goes on the question\'s row', async () => {
  for (const rows of [6, 8]) {
    const r = render(
      <Browser service={new InvariantService(exampleStore())} size={{ columns: 25, rows }} onQuit={() => {}} onError={() => {}} />,
    );
    await frameHas(r.lastFrame, 'shown of 6');
    r.stdin.write('s');
    const frame = await frameHas(r.lastFrame, 'Show which scope?');
    const question = lines(frame).find((l) => l.startsWith('Show which scope?'))!;
    expect(question).toMatch(rows === 8 ? /…$/ : /… 1\/5$/);
    r.unmount();
  }
});

test('the add form\'s key line at 25 columns drops whole keys, Shift-Tab back first, never cutting one ("Shift-Tab b…")', async () => {
  expect(formHint('text', ['scope', 'text'], 25)).toBe('Esc cancel');
  expect(formHint('text', ['scope', 'text'], 27)).toBe('Esc cancel · Shift-Tab back');
  expect(formHint('confirm', ['scope', 'text', 'confirm'], 25)).toBe('Enter/y save · Esc cancel');
  expect(formHint('confirm', ['scope', 'text', 'confirm'])).toBe('Enter/y save · n cancel · Esc cancel · Shift-Tab back');
  const service = new InvariantService(exampleStore());
  const r = render(<AddForm service={service} width={25} rows={8} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Scope (↑↓, Enter):');
  r.stdin.write('\r');
  const frame = await frameMatches(r.lastFrame, (f) => expect(f).toContain('Text:'));
  expect(lines(frame).at(-1)).toBe('Esc cancel');
  r.unmount();
});

test("a status the user must read takes the rows it needs from the list: e's hint at 25×8 says what to do whole", async () => {
  const r = render(
    <Browser service={new InvariantService(exampleStore())} size={{ columns: 25, rows: 8 }} onQuit={() => {}} onError={() => {}} />,
  );
  await frameHas(r.lastFrame, 'shown of 6');
  r.stdin.write('e');
  const frame = await frameHas(r.lastFrame, 'The effective set');
  // Said whole (in fewer words where the whole hint would not fit), never cut with "…"; the screen within the terminal.
  const said = lines(frame).slice(1, 4);
  expect(said.join(' ')).toBe('The effective set belongs to a project or plan: press s.');
  expect(lines(frame).length).toBeLessThanOrEqual(7);
  expect(lines(frame).at(-1)).toMatch(/quit$/);
  r.unmount();
});

test("the scope picker's e hint is said whole where the picker leaves it rows, and the picker keeps to the terminal", async () => {
  for (const [columns, rows, said] of [
    [25, 8, 'e: pick a project or plan.'],
    [25, 9, 'The effective set belongs to a project or plan: pick one.'],
    [40, 10, 'The effective set belongs to a project or a plan: pick one of those and press e.'],
  ] as const) {
    const r = render(
      <Browser service={new InvariantService(exampleStore())} size={{ columns, rows }} onQuit={() => {}} onError={() => {}} />,
    );
    await frameHas(r.lastFrame, 'shown of 6');
    r.stdin.write('s');
    await frameHas(r.lastFrame, '› all scopes');
    r.stdin.write('e');
    const frame = await frameMatches(r.lastFrame, (f) => expect(lines(f)[1]).toMatch(/^(e:|The effective)/));
    const at = lines(frame).findIndex((l) => l.startsWith('Show which scope?'));
    expect(lines(frame).slice(1, at).join(' '), `${columns}×${rows}`).toBe(said);
    // The question, the selected choice and the key line stay, within the terminal.
    expect(lines(frame)).toContain('› all scopes');
    expect(lines(frame).length, `${columns}×${rows}`).toBeLessThanOrEqual(rows - 1);
    r.unmount();
  }
});
