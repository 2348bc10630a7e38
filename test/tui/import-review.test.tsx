import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import type { ImportPlan, PlannedCandidate } from '../../src/core/import-plan.ts';
import { ImportReview } from '../../src/tui/ImportReview.tsx';
import { frameHas, frameMatches } from './helpers.ts';

const LONG = 'and make sure every reviewer has signed off on the migration plan and the rollback plan as well '.repeat(4).trim();

const candidate = (n: number): PlannedCandidate => ({
  n,
  file: 'AGENTS.md',
  line: n + 2,
  end_line: n + 2,
  whole: true,
  text: `Rule ${n}: run the whole integration suite before merging, ${LONG}`,
  tags: [],
  severity: 'error',
  scope: { kind: 'global' },
  status: 'new',
  near: [],
});

const plan: ImportPlan = { files: [], projects: [], candidates: Array.from({ length: 12 }, (_, i) => candidate(i + 1)) };

test('long rules keep the review within the terminal: the title, the selected rule and the keys stay on screen, and what is written is whole', async () => {
  for (const [columns, rows] of [
    [80, 24],
    [30, 8],
  ] as const) {
    const chosen: PlannedCandidate[][] = [];
    const r = render(<ImportReview plan={plan} width={columns} rows={rows} onDone={(c) => chosen.push(c)} onCancel={() => {}} />);
    const within = (frame: string) => {
      const lines = frame.split('\n');
      expect(lines.length).toBeLessThan(rows);
      expect(lines[0]).toMatch(/^Import 12 rules/);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    };
    within(await frameHas(r.lastFrame, '›'));
    for (let i = 0; i < 5; i++) r.stdin.write('j');
    within(await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/› \[x\] error {2}global {2}AGENTS\.m/)));
    expect(r.lastFrame()).toMatch(/›.*\n.*Rule 6:/);
    r.stdin.write('e');
    await frameHas(r.lastFrame, 'Enter saves the text');
    r.stdin.write(' and then some more words typed into the rule');
    // The field shows the end of the text, where typing goes.
    within(await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/ule ?$/m)));
    r.stdin.write('\r');
    within(await frameHas(r.lastFrame, '↑/↓ move'));
    r.stdin.write('\r');
    await expect.poll(() => chosen.length).toBe(1);
    expect(chosen[0]!.map((c) => c.text)).toEqual(
      plan.candidates.map((c) => (c.n === 6 ? `${c.text} and then some more words typed into the rule` : c.text)),
    );
    r.unmount();
  }
});

test('on a terminal of 5 to 8 rows the review still fits: the title and keys take a row each, and the count of rules left out goes first', async () => {
  // One candidate the store already holds: the line counting it is part of the frame.
  const held: ImportPlan = { ...plan, candidates: [...plan.candidates, { ...candidate(13), status: 'exists' } as PlannedCandidate] };
  for (const [columns, rows] of [
    [20, 5],
    [80, 6],
    [30, 8],
  ] as const) {
    const r = render(<ImportReview plan={held} width={columns} rows={rows} onDone={() => {}} onCancel={() => {}} />);
    const frame = await frameHas(r.lastFrame, '›');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    expect(lines[0]).toMatch(/^Import 12 rules/);
    expect(lines.at(-1)).toMatch(/^↑\/↓ move|nothing$/);
    r.unmount();
  }
});

test('a file not in English is said, as the text and JSON reports say it (files[].not_english): in a line of its own and in its rules headers', async () => {
  const french = { ...candidate(1), file: 'AGENTS.fr.md', text: 'Toujours lancer les tests' };
  const mixed: ImportPlan = {
    files: [{ file: 'AGENTS.fr.md', kind: 'agents-md', target: { kind: 'global' }, candidates: [], leftOut: [], notEnglish: true }],
    projects: [],
    candidates: [french, candidate(2)],
  };
  const r = render(<ImportReview plan={mixed} width={80} rows={24} onDone={() => {}} onCancel={() => {}} />);
  const frame = await frameHas(r.lastFrame, '›');
  expect(frame).toMatch(/^not English: AGENTS\.fr\.md/m);
  expect(frame).toMatch(/global {2}AGENTS\.fr\.md:3 {2}not English/);
  expect(frame).toMatch(/global {2}AGENTS\.md:4\s*$/m);
  expect(frame.split('\n').length).toBeLessThan(24);
  r.unmount();
  // An English file alone: no such note.
  const plainPlan = render(<ImportReview plan={plan} width={80} rows={24} onDone={() => {}} onCancel={() => {}} />);
  expect(await frameHas(plainPlan.lastFrame, '›')).not.toContain('not English');
  plainPlan.unmount();
});

test('Enter on a text edited to nothing keeps the field open and says so; typed again it saves, Esc keeps the old text', async () => {
  const one: ImportPlan = { ...plan, candidates: plan.candidates.slice(0, 2) };
  const chosen: PlannedCandidate[][] = [];
  const r = render(<ImportReview plan={one} width={80} rows={24} onDone={(c) => chosen.push(c)} onCancel={() => {}} />);
  await frameHas(r.lastFrame, '›');
  r.stdin.write('e');
  await frameHas(r.lastFrame, 'Enter saves the text');
  r.stdin.write('\u0015');
  await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('Rule 1'));
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'the text is empty');
  // Still editing: what is typed now is the rule's new text.
  r.stdin.write('Keep the changelog');
  await frameHas(r.lastFrame, 'Enter saves the text');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, '↑/↓ move');
  r.stdin.write('j');
  r.stdin.write('e');
  await frameHas(r.lastFrame, 'Enter saves the text');
  r.stdin.write('\u0015');
  await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('Rule 2'));
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'the text is empty');
  r.stdin.write('\u001b');
  await frameHas(r.lastFrame, '↑/↓ move');
  r.stdin.write('\r');
  await expect.poll(() => chosen.length).toBe(1);
  expect(chosen[0]!.map((c) => c.text)).toEqual(['Keep the changelog', one.candidates[1]!.text]);
  r.unmount();
});

test('opened again after a refused write: the rules as they were left (edited, dropped, the one selected) and the refusal, within the terminal; Enter gives them again', async () => {
  const three: ImportPlan = { ...plan, candidates: plan.candidates.slice(0, 3) };
  const items = three.candidates.map((c, i) => ({ ...c, keep: i !== 1, ...(i === 0 ? { text: 'Edited rule' } : {}) }));
  const refusal = `global is locked by process 7 on h (.agents/global/.lock); gave up after 20 ms. ${LONG}`;
  for (const [columns, rows] of [
    [80, 24],
    [30, 8],
    [20, 5],
  ] as const) {
    const chosen: PlannedCandidate[][] = [];
    const r = render(
      <ImportReview
        plan={three}
        width={columns}
        rows={rows}
        resume={{ items, at: 2, refusal }}
        onDone={(c) => chosen.push(c)}
        onCancel={() => {}}
      />,
    );
    const frame = await frameHas(r.lastFrame, '✗ global');
    const lines = frame.split('\n');
    expect([lines.length < rows, lines[0]]).toEqual([true, expect.stringMatching(/^Import 3/)]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    // The third rule is the selected one, as it was.
    expect(frame).toMatch(/› \[x\]/);
    expect(frame).toContain('Rule 3');
    r.stdin.write('\r');
    await expect.poll(() => chosen.length).toBe(1);
    expect(chosen[0]!.map((c) => c.text.slice(0, 11))).toEqual(['Edited rule', 'Rule 3: run']);
    r.unmount();
  }
});

test('with --prune, the invariants gone from their files are rows of the review: removed unless kept (space), with the rules kept; Enter gives both', async () => {
  const gone = [
    {
      id: '01M94R5WJC1VHFBX7WVN69QCRN',
      path: 'global/01M94R5WJC1VHFBX7WVN69QCRN.yaml',
      text: 'Never commit secrets.',
      file: 'AGENTS.md',
      line: 3,
    },
    {
      id: '01M94R5WJPTQ11HK52954BEKEV',
      path: 'global/01M94R5WJPTQ11HK52954BEKEV.yaml',
      text: 'Run the tests.',
      file: 'AGENTS.md',
      line: 5,
    },
  ];
  const two: ImportPlan = { ...plan, candidates: plan.candidates.slice(0, 2), stale: gone };
  for (const [columns, rows] of [
    [100, 24],
    [30, 8],
  ] as const) {
    const done: { chosen: PlannedCandidate[]; removed: { id: string }[] }[] = [];
    const r = render(
      <ImportReview
        plan={two}
        prune
        width={columns}
        rows={rows}
        onDone={(chosen, _, removed) => done.push({ chosen, removed })}
        onCancel={() => {}}
      />,
    );
    const first = await frameHas(r.lastFrame, '›');
    expect(first.split('\n').length).toBeLessThan(rows);
    if (columns === 100)
      expect(first.split('\n')[0]).toBe('Import 2 rules as invariants (2 kept); remove 2 invariants gone from their files (2 to remove)');
    // Down past the two rules to the first removal: its row says what will happen, and the keys fit it.
    r.stdin.write('j');
    r.stdin.write('j');
    const at = await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/› \[x\] remove/));
    for (const l of at.split('\n')) expect(l.length).toBeLessThanOrEqual(columns);
    if (columns === 100) {
      expect(at).toMatch(/› \[x\] remove {2}01M94R5WJC1VHFBX7WVN69QCRN {2}was AGENTS\.md:3/);
      expect(at).toContain('space remove/keep');
    }
    // Kept: the row says so, and e/s/p change nothing of it.
    r.stdin.write(' ');
    await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/› \[ \] keep/));
    r.stdin.write('e');
    r.stdin.write('s');
    r.stdin.write('p');
    r.stdin.write('\r');
    await expect.poll(() => done.length).toBe(1);
    expect(done[0]!.chosen.map((c) => c.n)).toEqual([1, 2]);
    expect(done[0]!.removed.map((g) => g.id)).toEqual([gone[1]!.id]);
    r.unmount();
  }
});

test('with --prune and no new rule, the review is of the removals alone; a (all) keeps every one', async () => {
  const gone = [
    {
      id: '01M94R5WJC1VHFBX7WVN69QCRN',
      path: 'global/01M94R5WJC1VHFBX7WVN69QCRN.yaml',
      text: 'Never commit secrets.',
      file: 'AGENTS.md',
      line: 3,
    },
  ];
  const only: ImportPlan = { files: [], projects: [], candidates: [], stale: gone };
  const done: { id: string }[][] = [];
  const r = render(
    <ImportReview plan={only} prune width={80} rows={24} onDone={(_, __, removed) => done.push(removed)} onCancel={() => {}} />,
  );
  expect((await frameHas(r.lastFrame, '›')).split('\n')[0]).toBe('Remove 1 invariant gone from its file (1 to remove)');
  r.stdin.write('a');
  await frameHas(r.lastFrame, '(0 to remove)');
  r.stdin.write('\r');
  await expect.poll(() => done.length).toBe(1);
  expect(done[0]).toEqual([]);
  r.unmount();
  // Without --prune they are not rows of the review.
  const plainReview = render(<ImportReview plan={{ ...plan, stale: gone }} width={80} rows={24} onDone={() => {}} onCancel={() => {}} />);
  expect(await frameHas(plainReview.lastFrame, '›')).not.toContain('remove ');
  plainReview.unmount();
});
