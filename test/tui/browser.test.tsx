import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { expect, onTestFinished, test, vi } from 'vitest';
import type { AgentsError } from '../../src/core/errors.ts';
import { invariantYaml } from '../helpers/tmp.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { Browser, type BrowserProps } from '../../src/tui/Browser.tsx';
import { FILTER_PAUSE_MS } from '../../src/tui/use-filtered-rows.ts';
import { BROWSER_KEYS } from '../../src/tui/Help.tsx';
import { terminalWidth } from '../../src/present/terminal-width.ts';
import { G1, G2, P1, P2, PLAN, bigStore, exampleStore, frameHas, frameMatches, settle, resizeTo } from './helpers.ts';

const SIZE = { columns: 80, rows: 24 };

function open(root: string, props: Partial<BrowserProps> = {}) {
  const service = new InvariantService(root);
  const events: string[] = [];
  const r = render(
    <Browser
      service={service}
      size={SIZE}
      onQuit={() => events.push('quit')}
      onError={(e) => events.push(`error ${String(e)}`)}
      {...props}
    />,
  );
  return { r, events };
}

const lines = (frame: string) => frame.split('\n');

test("a plan's effective set whose project is gone says so on a line of its own, as every reader of the set does", async () => {
  const root = exampleStore();
  writeFileSync(join(root, `plans/${PLAN}/plan.yaml`), `id: ${PLAN}\nproject: ghost\ngoal: Upgrade the API\n`);
  const { r } = open(root, { scope: { kind: 'plan', plan: PLAN }, effective: true });
  const frame = await frameHas(r.lastFrame, `effective set of plan ${PLAN.slice(0, 7)} · 3 in effect`);
  expect(frame).toContain(`! unknown-project: plan ${PLAN} targets project ghost,`);
  expect(frame).toContain(`(plans/${PLAN}/plan.yaml:2:10)`);
  r.unmount();
  // Its project back, nothing is said.
  mkdirSync(join(root, 'projects/ghost'));
  const back = open(root, { scope: { kind: 'plan', plan: PLAN }, effective: true });
  expect(await frameHas(back.r.lastFrame, `effective set of plan ${PLAN.slice(0, 7)} · `)).not.toContain('unknown-project');
  back.r.unmount();
  // At 40 columns the plan and the project are still named whole, each on a row, never cut off by the file's place.
  const project = 'ghost-of-a-renamed-service';
  writeFileSync(join(root, `plans/${PLAN}/plan.yaml`), `id: ${PLAN}\nproject: ${project}\ngoal: Upgrade the API\n`);
  const narrow = open(root, { scope: { kind: 'plan', plan: PLAN }, effective: true, size: { columns: 40, rows: 24 } });
  const rows = lines(await frameHas(narrow.r.lastFrame, 'unknown-project'));
  expect(rows.some((l) => l.includes(PLAN))).toBe(true);
  expect(rows.some((l) => l.includes(project))).toBe(true);
  for (const l of rows) expect(l.length).toBeLessThanOrEqual(40);
  narrow.r.unmount();
});

test('lists every invariant grouped by scope, with a detail pane, within 80 columns and the screen height', async () => {
  const { r } = open(exampleStore());
  const frame = await frameHas(r.lastFrame, 'agents · all scopes · 6 shown of 6');
  expect(lines(frame).slice(0, 12)).toEqual([
    'agents · all scopes · 6 shown of 6',
    '',
    'global (2)',
    '› E Never delete production data                                         01M8KJT',
    '  E (shadowed) Log all changes                                           01M8KJW',
    'project myapp (2)',
    '  E All API changes need tests                                           01M8KJX',
    '  W Log all changes                                                      01M8KJZ',
    'action local/code-coverage (1)',
    '  E Minimum 80% coverage                                                 01M8KK1',
    'plan 01M8KK5920RS6CGAVDFVYYJ0B4 (1)',
    '  E Use Python 3.13 only                                                 01M8KK3',
  ]);
  expect(frame).toContain(`${G1}  global · error · active`);
  expect(frame).toContain('created 2026-11-29T12:00:00Z by Example Team <team@example.com>');
  expect(lines(frame).length).toBeLessThanOrEqual(23);
  for (const l of lines(frame)) expect(l.length).toBeLessThanOrEqual(80);
  r.unmount();
});

test('moving down shows the selected invariant in the detail pane with its shadow links', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '› E Never delete');
  r.stdin.write('j');
  const frame = await frameHas(r.lastFrame, '› E (shadowed) Log all changes');
  expect(frame).toContain(`${G2}  global · error · active · #audit`);
  expect(frame).toContain(`shadowed by project myapp ${P2}`);
  r.stdin.write('jj');
  const p1 = await frameHas(r.lastFrame, '› W Log all changes');
  expect(p1).toContain(`shadows global ${G2}`);
  r.unmount();
});

test('a copy named in overrides is said as overridden, in its row and in both detail panes, as the effective set says it', async () => {
  const root = exampleStore();
  writeFileSync(join(root, `projects/myapp/${P2}.yaml`), invariantYaml(P2, 'Log all changes', { severity: 'warning', overrides: G2 }));
  const { r } = open(root);
  await frameHas(r.lastFrame, '› E Never delete');
  r.stdin.write('j');
  const frame = await frameHas(r.lastFrame, '› E (overridden) Log all changes');
  expect(frame).toContain(`overridden by project myapp ${P2}`);
  r.stdin.write('jj');
  expect(await frameHas(r.lastFrame, '› W Log all changes')).toContain(`overrides global ${G2}`);
  r.unmount();
});

test('/ filters live by regex; a bad regex is shown inline; Esc clears it', async () => {
  const { r, events } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('/');
  await frameHas(r.lastFrame, '/');
  r.stdin.write('log');
  const filtered = await frameHas(r.lastFrame, '2 shown of 6');
  expect(filtered).not.toContain('Never delete');
  r.stdin.write('(');
  const bad = await frameHas(r.lastFrame, '✗ invalid regex "log(":');
  expect(bad).toContain('Unterminated group');
  r.stdin.write('\u007f');
  await frameHas(r.lastFrame, '2 shown of 6');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, '/log');
  r.stdin.write('\u001b');
  await frameHas(r.lastFrame, '6 shown of 6');
  expect(events).toEqual([]);
  r.stdin.write('q');
  await expect.poll(() => events).toEqual(['quit']);
  r.unmount();
});

test('a pattern stopped for taking too long is said on the filter line, and the list stays unfiltered', { timeout: 30_000 }, async () => {
  // The limit lowered from its 2 s so the test does not wait it out; the pattern never ends, so any limit stops it.
  vi.stubEnv('AGENTS_REGEX_TIME_LIMIT_MS', '200');
  onTestFinished(() => void vi.unstubAllEnvs());
  const root = exampleStore();
  writeFileSync(join(root, `global/${G1}.yaml`), invariantYaml(G1, `${'a'.repeat(40)}c`));
  const { r, events } = open(root, { pattern: '(a+)+b' });
  const frame = await frameHas(r.lastFrame, 'was stopped');
  expect(lines(frame)[0]).toBe('agents · all scopes · 6 shown of 6');
  expect(frame).toContain('Log all changes');
  expect(events).toEqual([]);
  r.unmount();
});

test('typing a filter holds up no key: the pattern is run over the store once typing pauses, and at once when kept', async () => {
  vi.stubEnv('AGENTS_REGEX_TIME_LIMIT_MS', '200');
  onTestFinished(() => void vi.unstubAllEnvs());
  const root = exampleStore();
  writeFileSync(join(root, `global/${G1}.yaml`), invariantYaml(G1, `${'a'.repeat(40)}c`));
  const { r } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6');
  // Time is the test's from here: no filter runs until it says typing paused (frameHas is not used, as it moves time).
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  onTestFinished(() => void vi.useRealTimers());
  const type = async (keys: string) => {
    for (const key of keys) {
      r.stdin.write(key);
      await settle();
    }
  };
  const frame = () => r.lastFrame() ?? '';
  // A pattern that takes the whole time limit: each key shows at once, none of them runs it.
  await type('/(a+)+b');
  expect(frame()).toContain('/(a+)+b');
  expect(frame()).not.toContain('was stopped');
  vi.advanceTimersByTime(FILTER_PAUSE_MS - 1);
  await settle();
  expect(frame()).not.toContain('was stopped');
  vi.advanceTimersByTime(1);
  await settle();
  expect(frame()).toContain('was stopped');
  expect(lines(frame())[0]).toBe('agents · all scopes · 6 shown of 6');
  // Cleared (Ctrl-U), the list is whole at once; a pattern typed then kept with Enter filters at once.
  await type('\u0015');
  expect(frame()).not.toContain('was stopped');
  await type('log');
  expect(lines(frame())[0]).toBe('agents · all scopes · 6 shown of 6');
  await type('\r');
  expect(lines(frame())[0]).toBe('agents · all scopes · 2 shown of 6');
  // Typing again starts from the pattern kept, never from an older one.
  await type('/');
  expect(lines(frame())[0]).toBe('agents · all scopes · 2 shown of 6');
  r.unmount();
});

test('e shows the effective set of the selected project: hidden copies greyed under their shadower', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('jj');
  await frameHas(r.lastFrame, '› E All API changes need tests');
  r.stdin.write('e');
  const frame = await frameHas(r.lastFrame, 'effective set of project myapp · 3 in effect, 1 hidden');
  expect(lines(frame).slice(2, 8)).toEqual([
    'project myapp (2)',
    '› E All API changes need tests                                           01M8KJX',
    '  W Log all changes                                                      01M8KJZ',
    '  E ↳ hidden by 01M8KJZ: Log all changes                                 01M8KJW',
    'global (1)',
    '  E Never delete production data                                         01M8KJT',
  ]);
  expect(frame).toContain('rationale: Regressions reach clients.');
  r.stdin.write('jj');
  await frameHas(r.lastFrame, '› E ↳ hidden by');
  await frameHas(r.lastFrame, `hidden here by project myapp ${P2}`);
  r.stdin.write('e');
  await frameHas(r.lastFrame, 'all scopes · 6 shown of 6');
  r.unmount();
});

test('e reads the store again: a copy another process added while the browser was open is in the set, hidden where it is hidden', async () => {
  const root = exampleStore();
  const { r } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6');
  // Another process adds a global copy of a text project myapp holds: the set hides it under myapp's.
  const G3 = '01M9AAAAAAAAAAAAAAAAAAAAAA';
  writeFileSync(join(root, 'global', `${G3}.yaml`), invariantYaml(G3, 'All API changes need tests'));
  r.stdin.write('jj');
  await frameHas(r.lastFrame, '› E All API changes need tests');
  r.stdin.write('e');
  const frame = await frameHas(r.lastFrame, 'effective set of project myapp · 3 in effect, 2 hidden');
  expect(frame).toContain('  E ↳ hidden by 01M8KJX: All API changes need tests');
  // The list behind the set is the one read with it.
  r.stdin.write('e');
  await frameHas(r.lastFrame, 'all scopes · 7 shown of 7');
  r.unmount();
});

test('moves typed before the store is read are made once it is: G selects the last row, j moves from the top, e and d act on the row moved to', async () => {
  for (const [keys, ...expected] of [
    ['G', '6 shown of 6', '› E Use Python 3.13 only'],
    ['jj', '6 shown of 6', '› E All API changes need tests'],
    ['jje', 'effective set of project myapp · 3 in effect, 1 hidden', '› E All API changes need tests'],
    ['jjd', `Remove ${P1} from project myapp?`],
  ] as const) {
    const service = new InvariantService(exampleStore());
    // The first read held back until the keys are in, as a large store's read takes seconds.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const list = service.list.bind(service);
    service.list = async (...args) => {
      await held;
      return list(...args);
    };
    const r = render(<Browser service={service} size={SIZE} onQuit={() => {}} onError={() => {}} />);
    const reading = await frameHas(r.lastFrame, 'reading the store…');
    // No count until the store is read: "0 shown" would say it holds none.
    expect(lines(reading)[0]).toBe('agents · all scopes');
    r.stdin.write(keys);
    await settle();
    release();
    const frame = await frameHas(r.lastFrame, ...expected);
    expect(frame).not.toContain('The effective set belongs to a project or a plan');
    r.unmount();
  }
});

test('a filter pattern longer than the terminal stays on its row, with its problem: the title stays on screen', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('/');
  await frameHas(r.lastFrame, '/');
  const long = `(log|never|${Array.from({ length: 60 }, (_, i) => `word${i}`).join('|')})`;
  r.stdin.write(long);
  const within = (frame: string) => {
    expect(lines(frame)[0]).toMatch(/^agents · all scopes · /);
    expect(lines(frame)[1]).toMatch(/^\/…/);
    expect(lines(frame)[2]).toBe('global (2)');
    expect(lines(frame).length).toBeLessThanOrEqual(23);
    for (const l of lines(frame)) expect(l.length).toBeLessThanOrEqual(80);
  };
  within(await frameHas(r.lastFrame, '3 shown of 6', 'word59)'));
  r.stdin.write('(');
  within(await frameHas(r.lastFrame, '✗ invalid regex'));
  r.unmount();
});

test('a filter pattern of one long word shows its end on its row, where typing goes, not only what follows its last break', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('/');
  await frameHas(r.lastFrame, '/');
  // One column more than the field's 78: broken into rows, the last holds one character.
  const long = `${'x'.repeat(52)}abcdefghijklmnopqrstuvwxyz0`;
  r.stdin.write(long);
  const frame = await frameHas(r.lastFrame, '0 shown of 6');
  expect(lines(frame)[1]!.trimEnd()).toBe(`/…${long.slice(-77)}`);
  r.unmount();
});

test('a filtered effective set is counted against the whole set: the title never gives what the filter kept as the set', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('jj');
  await frameHas(r.lastFrame, '› E All API changes need tests');
  r.stdin.write('/');
  await frameHas(r.lastFrame, '/');
  r.stdin.write('log');
  await frameHas(r.lastFrame, '2 shown of 6');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, '› W Log all changes');
  r.stdin.write('e');
  await frameHas(r.lastFrame, 'effective set of project myapp · 1 of 3 in effect, 1 of 1 hidden');
  r.stdin.write('\u001b');
  await frameHas(r.lastFrame, 'effective set of project myapp · 3 in effect, 1 hidden');
  r.unmount();
});

test('a long project name is cut with "…" in the title at 40 columns, which keeps its count ("agents" giving way to the name first)', async () => {
  const root = exampleStore();
  const name = `p${'x'.repeat(63)}`;
  mkdirSync(join(root, `projects/${name}`));
  writeFileSync(join(root, `projects/${name}/${P1}.yaml`), invariantYaml(P1, 'A rule of the long project'));
  rmSync(join(root, `projects/myapp/${P1}.yaml`));
  const props = { scope: { kind: 'project' as const, project: name }, size: { columns: 40, rows: 24 } };
  const { r } = open(root, props);
  const [title = ''] = lines(await frameHas(r.lastFrame, 'A rule of the long project'));
  expect(title).toMatch(/^agents · project px+… · 1 shown of 6$/);
  r.stdin.write('e');
  const [set = ''] = lines(await frameHas(r.lastFrame, 'in effect'));
  expect(set).toMatch(/^project px+… · 3 in effect, 0 hidden$/);
  r.unmount();
  // Wider, the words come back before the name.
  const wide = open(root, { ...props, effective: true, size: { columns: 80, rows: 24 } });
  const [wider = ''] = lines(await frameHas(wide.r.lastFrame, 'in effect'));
  expect(wider).toMatch(/^agents · effective set of project px+… · 3 in effect, 0 hidden$/);
  wide.r.unmount();
});

test("a plan's filtered effective set keeps its counts in the title at 80 columns: the plan's id shortened where the whole one leaves no room", async () => {
  const { r } = open(exampleStore(), { scope: { kind: 'plan', plan: PLAN }, effective: true, pattern: 'python|log' });
  const frame = await frameHas(r.lastFrame, '2 of 4 in effect, 1 of 1 hidden');
  expect(lines(frame)[0]).toBe(`agents · effective set of plan ${PLAN.slice(0, 7)} · 2 of 4 in effect, 1 of 1 hidden`);
  r.stdin.write('\u001b');
  const whole = await frameHas(r.lastFrame, '· 4 in effect, 1 hidden');
  expect(lines(whole)[0]).toBe(`agents · effective set of plan ${PLAN.slice(0, 7)} · 4 in effect, 1 hidden`);
  r.unmount();
  // Where the whole id fits with the count, it is given whole.
  const wide = open(exampleStore(), { scope: { kind: 'plan', plan: PLAN }, effective: true, size: { columns: 100, rows: 24 } });
  const title = lines(await frameHas(wide.r.lastFrame, '4 in effect, 1 hidden'))[0];
  expect(title).toBe(`agents · effective set of plan ${PLAN} · 4 in effect, 1 hidden`);
  wide.r.unmount();
});

test('e with nothing to resolve explains itself; s switches scope', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('e');
  await frameHas(r.lastFrame, 'The effective set belongs to a project or a plan');
  r.stdin.write('s');
  await frameHas(r.lastFrame, 'Show which scope?', '› all scopes');
  r.stdin.write('jj');
  await frameHas(r.lastFrame, '› project myapp');
  r.stdin.write('\r');
  const frame = await frameHas(r.lastFrame, 'agents · project myapp · 2 shown of 6');
  expect(frame).not.toContain('global (');
  r.unmount();
});

test('? shows the keys; any key goes back', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('?');
  const help = await frameHas(r.lastFrame, 'Keys', 'Press any key to go back.');
  expect(help).toContain('/               filter by regex');
  r.stdin.write('x');
  await frameHas(r.lastFrame, 'global (2)');
  r.unmount();
});

test('the help wraps its words on a narrow terminal and scrolls on a short one: every word of it shows, within the terminal', async () => {
  for (const size of [
    { columns: 40, rows: 24 },
    { columns: 30, rows: 24 },
    { columns: 25, rows: 8 },
    { columns: 20, rows: 5 },
  ]) {
    const { r } = open(exampleStore(), { size });
    await frameHas(r.lastFrame, '› E Never');
    r.stdin.write('?');
    const seen = lines(await frameHas(r.lastFrame, '↑ ↓  k j')).slice(1);
    expect(seen.at(-1)).toMatch(/^↑↓ more · /);
    // j to the end and one more: at the end it stays, and no key of the help's own leaves it.
    for (let i = 0; i < 45; i++) {
      r.stdin.write('j');
      await settle();
      const frame = lines(r.lastFrame() ?? '');
      expect(frame.length).toBeLessThanOrEqual(size.rows - 1);
      for (const l of frame) expect(terminalWidth(l)).toBeLessThanOrEqual(size.columns);
      seen.push(...frame.slice(1));
    }
    expect(seen.at(-1)).toMatch(/^↑↓ more · /);
    const words = seen.join(' ').split(/\s+/);
    for (const [key, what] of BROWSER_KEYS) {
      for (const word of `${key} ${what}`.split(/\s+/)) expect(words, `${word} at ${size.columns}×${size.rows}`).toContain(word);
    }
    expect(seen.join('\n')).not.toContain('…\n');
    r.stdin.write('x');
    await frameHas(r.lastFrame, '› E Never');
    r.unmount();
  }
});

test('on a narrow terminal the ids give way to the text where both do not fit: the marker, severity and text stay on each row', async () => {
  // Ids sharing 24 characters: the shortest unique prefixes are 26 characters long.
  const root = bigStore(30);
  for (const [columns, ids] of [
    [25, false],
    [39, true],
  ] as const) {
    const { r } = open(root, { size: { columns, rows: 10 } });
    const frame = lines(await frameHas(r.lastFrame, '30 shown'));
    const selected = frame.find((l) => l.startsWith('› '));
    expect(selected, frame.join('\n')).toMatch(/^› E Rule/);
    expect(selected!.endsWith('01M8KK00000000000000000000')).toBe(ids);
    for (const l of frame) expect(l.length).toBeLessThanOrEqual(columns);
    // The detail pane gives the selected id, as much of it as the terminal's width holds.
    expect(frame.some((l) => l.startsWith('01M8KK00000000000000000000'.slice(0, columns - 1)))).toBe(true);
    r.unmount();
  }
});

test('on a narrow terminal the title ends with its count: the name "agents", then the store\'s total give way first', async () => {
  const root = bigStore(1000);
  for (const [columns, title] of [
    [80, /^agents · all scopes · 1000 shown of 1000$/],
    [32, /^all scopes · 1000 shown of 1000$/],
    [20, /^all sc… · 1000 shown$/],
  ] as const) {
    const { r } = open(root, { size: { columns, rows: 10 } });
    const frame = lines(await frameHas(r.lastFrame, '1000 shown'));
    expect(frame[0]).toMatch(title);
    r.unmount();
  }
  // An effective set's counts, and its project's name, stay whole at 40 columns.
  const { r } = open(exampleStore(), { scope: { kind: 'project', project: 'myapp' }, effective: true, size: { columns: 40, rows: 10 } });
  expect(lines(await frameHas(r.lastFrame, 'in effect'))[0]).toBe('project myapp · 3 in effect, 1 hidden');
  r.unmount();
});

test('the scope picker on a narrow terminal keeps Enter, the key that chooses, on its key line with the way back', async () => {
  for (const [columns, keys] of [
    [80, '↑↓ move · Enter show it · e effective set · Esc back'],
    [40, '↑↓ move · Enter show it · Esc back'],
    [25, 'Enter show it · Esc back'],
  ] as const) {
    const { r } = open(exampleStore(), { size: { columns, rows: 10 } });
    await frameHas(r.lastFrame, '› E Never');
    r.stdin.write('s');
    expect(lines(await frameHas(r.lastFrame, '› all scopes')).at(-1)).toBe(keys);
    r.stdin.write('j');
    await frameHas(r.lastFrame, '› global');
    r.stdin.write('\r');
    expect(lines(await frameHas(r.lastFrame, '2 shown'))[0]).toContain('global');
    r.unmount();
  }
});

test('d asks with the remove confirmation: n keeps, y removes and the list reloads', async () => {
  const root = exampleStore();
  const { r } = open(root);
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('jjj');
  await frameHas(r.lastFrame, '› W Log all changes');
  r.stdin.write('d');
  await frameHas(r.lastFrame, `Remove ${P2} from project myapp?`, `global ${G2}`, 'Remove this invariant? [y/N]');
  r.stdin.write('n');
  await frameHas(r.lastFrame, 'Nothing removed.');
  expect(existsSync(join(root, `projects/myapp/${P2}.yaml`))).toBe(true);
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  await frameHas(r.lastFrame, `removed ${P2}`, '5 shown of 5');
  expect(existsSync(join(root, `projects/myapp/${P2}.yaml`))).toBe(false);
  expect(r.lastFrame()).not.toContain('(shadowed)');
  // The project's last invariant removed while a plan targets it: the project is kept, and said so as the CLI says it.
  r.stdin.write('gjj');
  await frameHas(r.lastFrame, '› E All API changes need tests');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  await frameHas(r.lastFrame, `removed ${P1}`, 'kept project myapp', `(projects/myapp/.gitkeep): plan ${PLAN} targets it;`);
  expect(existsSync(join(root, 'projects/myapp'))).toBe(true);
  r.unmount();
});

test('a adds through the form and the new invariant appears', async () => {
  const root = exampleStore();
  const { r } = open(root);
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('a');
  await frameHas(r.lastFrame, 'Add an invariant', '› global');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Keep secrets out of logs');
  await frameHas(r.lastFrame, '✓ new in this scope');
  for (const step of ['Severity', 'Tags', 'Rationale', 'Guard 1/4', 'Guard 2/4', 'Guard 3/4', 'Guard 4/4', 'Add it?']) {
    r.stdin.write('\r');
    await frameHas(r.lastFrame, step);
  }
  r.stdin.write('\r');
  const frame = await frameHas(r.lastFrame, '7 shown of 7', 'Keep secrets out of logs');
  expect(frame).toMatch(/added [0-9A-Z]{26} · global\/[0-9A-Z]{26}\.yaml/);
  r.unmount();
});

test('long texts are truncated with an ellipsis at 80 columns and wrap in the detail pane', async () => {
  const long = 'Every database migration must be reversible and tested against a copy of production data before it is merged';
  const root = exampleStore();
  await new InvariantService(root).add({ scope: { global: true }, text: long });
  const { r } = open(root);
  const frame = await frameHas(r.lastFrame, '7 shown');
  const row = lines(frame).find((l) => l.includes('Every database'))!;
  expect(row).toMatch(/^ {2}E Every database migration must be reversible and tested against a[^…]*… +[0-9A-Z]{4,26}$/);
  expect(row.length).toBe(80);
  for (const l of lines(frame)) expect(l.length).toBeLessThanOrEqual(80);
  r.stdin.write('jj');
  const detail = await frameHas(r.lastFrame, '› E Every database');
  const pane = lines(detail).slice(lines(detail).findIndex((l) => l.startsWith('─')));
  expect(pane.slice(2, 4).join(' ')).toBe(long);
  r.unmount();
});

test('redraws to the new size when the terminal is resized', async () => {
  const root = exampleStore();
  const service = new InvariantService(root);
  const r = render(<Browser service={service} onQuit={() => {}} onError={() => {}} />);
  await frameHas(r.lastFrame, '6 shown');
  resizeTo(r.stdout, 50, 12);
  const frame = await frameMatches(r.lastFrame, (f) => expect(f).toContain(`${'─'.repeat(50)}\n`));
  for (const l of lines(frame)) expect(l.length).toBeLessThanOrEqual(50);
  expect(lines(frame).length).toBeLessThanOrEqual(11);
  r.unmount();
});

test('10,000 invariants: only the rows that fit are rendered; End reaches the last', async () => {
  const root = bigStore(10_000);
  const { r } = open(root);
  const frame = await frameHas(r.lastFrame, '10000 shown of 10000');
  const rows = lines(frame).filter((l) => l.includes('Rule number'));
  expect(rows.length).toBeLessThanOrEqual(20);
  expect(rows[0]).toContain('Rule number 0 of the generated store');
  expect(lines(frame).length).toBeLessThanOrEqual(23);
  r.stdin.write('G');
  const end = await frameHas(r.lastFrame, '› E Rule number 9999 of');
  expect(end).not.toContain('Rule number 0 of');
  expect(lines(end).filter((l) => l.includes('Rule number')).length).toBeLessThanOrEqual(20);
  r.unmount();
});

test('the detail pane shows the rationale of the selected invariant', async () => {
  const { r } = open(exampleStore());
  await frameHas(r.lastFrame, '6 shown');
  r.stdin.write('jj');
  await frameHas(r.lastFrame, `${P1}  project myapp`, 'rationale: Regressions reach clients.');
  r.unmount();
});

test('the effective set marks waived invariants, and the detail pane shows each waiver', async () => {
  const root = exampleStore();
  const waiver = (id: string, invariant: string, expires: string, reason: string) =>
    `id: ${id}\ninvariant_id: ${invariant}\nreason: ${reason}\nowner: Ops\nexpires: ${expires}\ncreated_at: 2020-01-01T00:00:00Z\n`;
  mkdirSync(join(root, 'projects/myapp/waivers'));
  writeFileSync(
    join(root, 'projects/myapp/waivers/01M8KM00000000000000000001.yaml'),
    waiver('01M8KM00000000000000000001', P1, '2999-12-31', 'Legacy endpoints'),
  );
  mkdirSync(join(root, `plans/${PLAN}/waivers`), { recursive: true });
  writeFileSync(
    join(root, `plans/${PLAN}/waivers/01M8KM00000000000000000002.yaml`),
    waiver('01M8KM00000000000000000002', G1, '2020-01-31', 'Old migration'),
  );
  const { r } = open(root, { scope: { kind: 'plan', plan: PLAN }, effective: true });
  // At 80 columns the title gives the plan's short id, leaving room for its count.
  const frame = await frameHas(r.lastFrame, `effective set of plan ${PLAN.slice(0, 7)} · `);
  expect(frame).toContain('  E (waived) All API changes need tests');
  expect(frame).toContain('  E (waiver expired) Never delete production data');
  r.stdin.write('j');
  await frameHas(r.lastFrame, '› E (waived) All API changes need tests');
  // Said as plan show and invariant list --effective say it (present/effective.ts), the waiver's id with it.
  await frameHas(r.lastFrame, 'waived until 2999-12-31 (project myapp, 01M8KM00000000000000000001, owner Ops):', 'Legacy endpoints');
  r.unmount();
});

test("a waiver's reason after a long owner shows on a second row of the detail pane, instead of cut after a word", async () => {
  const root = exampleStore();
  mkdirSync(join(root, `plans/${PLAN}/waivers`), { recursive: true });
  writeFileSync(
    join(root, `plans/${PLAN}/waivers/01M8KM00000000000000000003.yaml`),
    `id: 01M8KM00000000000000000003\ninvariant_id: ${G1}\nreason: The sandbox keeps its own copy of production\nowner: Example Team <team@example.com>\nexpires: 2999-12-31\ncreated_at: 2020-01-01T00:00:00Z\n`,
  );
  const { r } = open(root, { scope: { kind: 'plan', plan: PLAN }, effective: true });
  await frameHas(r.lastFrame, '(waived) Never delete production data');
  r.stdin.write('G');
  const frame = await frameHas(r.lastFrame, '› E (waived) Never delete production data');
  expect(frame.split('\n').join(' ')).toContain('owner Example Team <team@example.com>): The sandbox keeps its own copy of production');
  expect(lines(frame).length).toBeLessThanOrEqual(23);
  r.unmount();
});

test('a short terminal keeps the title, the selected row and the key line on screen: the detail pane gives way', async () => {
  for (const size of [
    { columns: 20, rows: 5 },
    { columns: 80, rows: 8 },
  ]) {
    const { r } = open(exampleStore(), { size });
    const frame = await frameHas(r.lastFrame, '› E Never');
    // One row spare, so that Ink never scrolls the screen.
    expect(lines(frame).length).toBeLessThanOrEqual(size.rows - 1);
    expect(lines(frame)[0]).toMatch(/all .* · 6 shown of 6$/);
    expect(lines(frame).at(-1)).toMatch(/q quit$/);
    r.stdin.write('?');
    const help = await frameHas(r.lastFrame, '↑ ↓  k j');
    expect(lines(help).length).toBeLessThanOrEqual(size.rows - 1);
    r.stdin.write('x');
    await frameHas(r.lastFrame, '› E Never');
    r.stdin.write('s');
    const picker = await frameHas(r.lastFrame, '› all scopes');
    expect(lines(picker).length).toBeLessThanOrEqual(size.rows - 1);
    r.unmount();
  }
});

test('below 8 rows the scope picker still asks its question and says where the cursor is in the list it cuts', async () => {
  for (const rows of [5, 6, 7]) {
    const { r } = open(exampleStore(), { size: { columns: 80, rows } });
    await frameHas(r.lastFrame, '› E Never');
    r.stdin.write('s');
    const picker = await frameHas(r.lastFrame, '› all scopes', 'Show which scope?');
    expect(picker, `${rows} rows`).toMatch(/ 1\/\d+$/m);
    expect(lines(picker).length).toBeLessThanOrEqual(rows - 1);
    r.stdin.write('j');
    const moved = await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/ 2\/\d+$/m));
    expect(lines(moved).length).toBeLessThanOrEqual(rows - 1);
    // A status to say takes its row back from the question on 5 rows.
    r.stdin.write('k');
    await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/ 1\/\d+$/m));
    r.stdin.write('e');
    const said = await frameHas(r.lastFrame, 'The effective set belongs', '› all scopes');
    expect(lines(said).length).toBeLessThanOrEqual(rows - 1);
    r.unmount();
  }
});

test('a detail pane shorter than its lines is cut at its foot, each line whole on a row of its own', async () => {
  for (const rows of [7, 8, 10, 14]) {
    const { r } = open(exampleStore(), { size: { columns: 80, rows } });
    const frame = await frameHas(r.lastFrame, '› E Never');
    const rule = lines(frame).indexOf('─'.repeat(80));
    expect(rule).toBeGreaterThan(0);
    const pane = lines(frame).slice(rule + 1, -1);
    const whole = [`${G1}  global · error · active`, 'Never delete production data', `path: global/${G1}.yaml`];
    expect(pane.length).toBeGreaterThan(0);
    expect(pane).toEqual(whole.slice(0, pane.length));
    r.unmount();
  }
});

test('removing from an effective set: the set is recomputed, the cursor stays in place and the status says what was removed', async () => {
  const { r } = open(exampleStore(), { scope: { kind: 'project', project: 'myapp' }, effective: true });
  await frameHas(r.lastFrame, 'effective set of project myapp · 3 in effect, 1 hidden');
  r.stdin.write('j');
  await frameHas(r.lastFrame, '› W Log all changes');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  // The global copy it hid comes back into effect, where the removed one was.
  const frame = await frameHas(r.lastFrame, '3 in effect, 0 hidden', `removed ${P2}`);
  expect(lines(frame).filter((l) => l.startsWith('› '))).toEqual([expect.stringMatching(/^› E (Log all changes|Never delete)/)]);
  r.unmount();
});

test('d on an invariant another process removed while the screen was open: the refusal is shown and the row goes', async () => {
  const root = exampleStore();
  const { r, events } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6', '› E Never delete production data');
  rmSync(join(root, `global/${G1}.yaml`));
  r.stdin.write('d');
  const frame = await frameHas(r.lastFrame, '5 shown of 5');
  expect(frame).not.toContain('Never delete production data');
  expect(frame).not.toContain('Remove this invariant?');
  expect(frame).toContain(G1);
  expect(events).toEqual([]);
  r.unmount();
});

test('a file another process broke while the screen was open: a removal still says what it removed, the screen stays open and says why the list is as before, until a read works', async () => {
  const root = exampleStore();
  const { r, events } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6', '› E Never delete production data');
  const good = readFileSync(join(root, `global/${G2}.yaml`), 'utf8');
  writeFileSync(join(root, `global/${G2}.yaml`), 'text: [broken\n');
  r.stdin.write('jjj');
  await frameHas(r.lastFrame, '› W Log all changes');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  const frame = await frameHas(r.lastFrame, `removed ${P2}`, `global/${G2}.yaml:1:7`);
  expect(existsSync(join(root, `projects/myapp/${P2}.yaml`))).toBe(false);
  expect(frame).toContain('6 shown of 6');
  expect(lines(frame).length).toBeLessThanOrEqual(23);
  expect(events).toEqual([]);
  // Mended, the store is read again at the next change (here d on the row removed): the line goes, the row too.
  writeFileSync(join(root, `global/${G2}.yaml`), good);
  r.stdin.write('d');
  const after = await frameHas(r.lastFrame, '5 shown of 5');
  expect(after).not.toContain(`global/${G2}.yaml:1:7`);
  expect(events).toEqual([]);
  r.unmount();
});

test("a file another process broke: the status line and the line under it keep the file and line to fix, and the first problem's code, which one row of 80 columns cut off", async () => {
  const root = exampleStore();
  const { r, events } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6', '› E Never delete production data');
  // Two problems in a project's file: the message that names them is longer than a row.
  writeFileSync(join(root, `projects/myapp/${P2}.yaml`), 'text: [broken\nseverity: [\n');
  r.stdin.write('jjj');
  await frameHas(r.lastFrame, '› W Log all changes');
  r.stdin.write('e');
  const refused = await frameHas(r.lastFrame, 'cannot resolve the effective set');
  expect(refused).toContain(`projects/myapp/${P2}.yaml:`);
  // What is wrong there, not only where: the first problem's code.
  expect(refused).toContain('(yaml-syntax)');
  expect(lines(refused).length).toBeLessThanOrEqual(23);
  // A change made meanwhile reads the store again: the line under the status says why the list is as before, with where.
  r.stdin.write('k');
  await frameHas(r.lastFrame, '› E All API changes need tests');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  // The message's rows break at spaces: read as one line.
  const after = await frameMatches(r.lastFrame, (f) => expect(f.replace(/\n/g, ' ')).toContain('the list is as read before'));
  expect(after).toContain(`removed ${P1}`);
  expect(after.split(`projects/myapp/${P2}.yaml:`).length).toBe(2);
  expect(after).toContain('(yaml-syntax)');
  expect(lines(after).length).toBeLessThanOrEqual(23);
  expect(events).toEqual([]);
  r.unmount();
});

test('e on a plan another process removed says so and reads the store again, so that its rows go too', async () => {
  const root = exampleStore();
  const { r, events } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6');
  rmSync(join(root, `plans/${PLAN}`), { recursive: true });
  r.stdin.write('G');
  await frameHas(r.lastFrame, '› E Use Python 3.13 only');
  r.stdin.write('e');
  const frame = await frameHas(r.lastFrame, `no plan with id ${PLAN}`, '5 shown of 5');
  expect(frame).not.toContain('Use Python 3.13 only');
  expect(events).toEqual([]);
  r.unmount();
});

test('a store moved away while the screen is open is said, not read as an empty store', async () => {
  const root = exampleStore();
  const { r, events } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6', '› E Never delete production data');
  renameSync(root, `${root}.moved`);
  r.stdin.write('d');
  const frame = await frameHas(r.lastFrame, `no store at ${root}`);
  expect(frame).toContain('6 shown of 6');
  // The store's absence is the one thing said: not the id it no longer holds, nor the set it cannot resolve.
  expect(frame).not.toContain('no invariant with id');
  r.stdin.write('e');
  await frameMatches(r.lastFrame, (f) => {
    expect(f).toContain(`no store at ${root}`);
    expect(f).not.toMatch(/no invariant with id|unknown project/);
  });
  expect(existsSync(root)).toBe(false);
  expect(events).toEqual([]);
  r.unmount();
});

test('removing the last invariant of a project from its effective set: the removal is said, and the view leaves the set that went with it', async () => {
  const root = exampleStore();
  const added = await new InvariantService(root).add({ scope: { kind: 'project', project: 'solo' }, text: 'Only rule', newProject: true });
  const { r, events } = open(root, { scope: { kind: 'project', project: 'solo' }, effective: true });
  await frameHas(r.lastFrame, 'effective set of project solo', '› E Only rule');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  const frame = await frameHas(r.lastFrame, `removed ${added.invariant.id}`);
  await frameMatches(r.lastFrame, (f) => {
    expect(lines(f)[0]).toMatch(/^agents · project solo · 0 shown/);
    expect(f).not.toContain('Only rule');
  });
  expect(existsSync(join(root, 'projects/solo'))).toBe(false);
  expect(frame).not.toContain('Remove this invariant?');
  expect(events).toEqual([]);
  r.unmount();
});

test('on a terminal wider than 100 columns, the remove confirmation and the add form are drawn 100 wide, as outside the browser', async () => {
  const root = exampleStore();
  writeFileSync(join(root, `global/${G1}.yaml`), invariantYaml(G1, 'Keep every record of every change. '.repeat(20).trim()));
  const { r } = open(root, { size: { columns: 160, rows: 30 } });
  await frameHas(r.lastFrame, '› E Keep every record');
  r.stdin.write('d');
  const confirm = await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  expect(Math.max(...lines(confirm).map((l) => l.length))).toBeLessThanOrEqual(100);
  r.stdin.write('n');
  await frameHas(r.lastFrame, 'Nothing removed.');
  r.stdin.write('a');
  await frameHas(r.lastFrame, 'Scope (↑↓, Enter):');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Keep every record of every change. '.repeat(20).trim());
  const form = await frameHas(r.lastFrame, '✗ duplicate');
  expect(Math.max(...lines(form).map((l) => l.length))).toBeLessThanOrEqual(100);
  r.unmount();
});

test('a text holding tabs is drawn with spaces: no row outgrows the width, the title stays on the first line', async () => {
  const root = exampleStore();
  writeFileSync(join(root, `global/${G1}.yaml`), invariantYaml(G1, 'Tab\there\tand\tthere\tagain\tand\tagain\tand\tagain\tmore\tend'));
  const { r } = open(root);
  const frame = await frameHas(r.lastFrame, '› E Tab here and there');
  expect(frame).not.toContain('\t');
  expect(lines(frame)[0]).toContain('agents · all scopes');
  for (const l of lines(frame)) expect(l.length).toBeLessThanOrEqual(80);
  r.unmount();
});

test('a on a short terminal: the scope list of the add form shows what fits, the selected scope among it', async () => {
  const size = { columns: 40, rows: 6 };
  const { r } = open(exampleStore(), { size });
  await frameHas(r.lastFrame, '› E Never');
  r.stdin.write('a');
  const first = await frameHas(r.lastFrame, 'Scope (↑↓, Enter):', '› global');
  expect(lines(first).length).toBeLessThanOrEqual(size.rows - 1);
  r.stdin.write('\u001b[B');
  const next = await frameHas(r.lastFrame, '› project myapp');
  expect(lines(next).length).toBeLessThanOrEqual(size.rows - 1);
  r.unmount();
});

test('a terminal smaller than 20×5 shows its size and the size needed, within it; the screen behind it keeps its state', async () => {
  const service = new InvariantService(exampleStore());
  const at = (size: { columns: number; rows: number }) => <Browser service={service} size={size} onQuit={() => {}} onError={() => {}} />;
  const r = render(at({ columns: 15, rows: 10 }));
  const small = await frameHas(r.lastFrame, '15×10');
  expect(small).toContain('20×5');
  expect(small).not.toContain('agents ·');
  expect(lines(small).length).toBeLessThanOrEqual(9);
  for (const l of lines(small)) expect(l.length).toBeLessThanOrEqual(15);
  // A resize back brings the list; an add form opened before the terminal shrank is there, as it was, after it grows.
  r.rerender(at(SIZE));
  await frameHas(r.lastFrame, '› E Never');
  r.stdin.write('a');
  await frameHas(r.lastFrame, '› global');
  r.stdin.write('j');
  await frameHas(r.lastFrame, '› project myapp');
  r.rerender(at({ columns: 30, rows: 4 }));
  const short = await frameHas(r.lastFrame, '30×4');
  expect(short).not.toContain('project myapp');
  expect(lines(short).length).toBeLessThanOrEqual(3);
  r.rerender(at(SIZE));
  await frameHas(r.lastFrame, '› project myapp');
  r.unmount();
});

test('q quits from the too-small screen', async () => {
  const { r, events } = open(exampleStore(), { size: { columns: 12, rows: 3 } });
  await frameHas(r.lastFrame, '12×3');
  r.stdin.write('q');
  await expect.poll(() => events).toEqual(['quit']);
  r.unmount();
});

test("a removal refused for another writer's lock says the refusal's hint on the status line: the lock to delete when no writer runs", async () => {
  vi.stubEnv('AGENTS_LOCK_TIMEOUT_MS', '20');
  onTestFinished(() => void vi.unstubAllEnvs());
  const root = exampleStore();
  writeFileSync(join(root, 'global', '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
  const refusal = (await new InvariantService(root).remove(G1).catch((error: unknown) => error)) as AgentsError;
  expect(refusal).toMatchObject({ code: 'locked', hintAnySurface: true });
  const { r, events } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6', '› E Never delete production data');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
  r.stdin.write('y');
  const frame = await frameHas(r.lastFrame, 'is locked by');
  // The status line's rows under the title, up to the first scope's heading: the message, then as much of the hint as
  // its rows hold (the store of this test is in no repository, so the lock is named by its whole path).
  const said = frame.slice(frame.indexOf('\n') + 1, frame.indexOf('global (')).replace(/\s+/g, ' ');
  expect(said).toContain(`${refusal.message}. ${refusal.hint!.slice(0, 30)}`);
  expect(existsSync(join(root, `global/${G1}.yaml`))).toBe(true);
  expect(events).toEqual([]);
  r.unmount();
});

test('the status line after an add says what the new copy shadows and nearly repeats, as invariant add prints it, whole at 80×24 and cut to its one row at 20×5', async () => {
  const root = exampleStore();
  const near = '01M8KK7000000000000000NEAR';
  writeFileSync(join(root, `global/${near}.yaml`), invariantYaml(near, 'Never delete production dat'));
  const service = new InvariantService(root);
  const at = (size: { columns: number; rows: number }) => <Browser service={service} size={size} onQuit={() => {}} onError={() => {}} />;
  const r = render(at(SIZE));
  await frameHas(r.lastFrame, '7 shown');
  r.stdin.write('a');
  await frameHas(r.lastFrame, '› global');
  r.stdin.write('j');
  await frameHas(r.lastFrame, '› project myapp');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Never delete production data');
  await frameHas(r.lastFrame, '↓ it shadows');
  for (const step of ['Severity', 'Tags', 'Rationale', 'Guard 1/4', 'Guard 2/4', 'Guard 3/4', 'Guard 4/4', 'Add it?']) {
    r.stdin.write('\r');
    await frameHas(r.lastFrame, step);
  }
  r.stdin.write('\r');
  const frame = await frameHas(r.lastFrame, '8 shown of 8');
  const said = lines(frame).slice(1, 6).join(' ');
  expect(said).toMatch(/^added [0-9A-Z]{26} · projects\/myapp\/[0-9A-Z]{26}\.yaml · /);
  expect(said).toContain(`note: it shadows the copy in global (${G1})`);
  // The status line takes the rows it needs from the list: the near repeat's warning is said whole.
  expect(said).toMatch(new RegExp(` · warning: nearly repeats global ${near} "Never delete production dat" .*both apply$`));
  expect(lines(frame).length).toBeLessThanOrEqual(SIZE.rows - 1);
  // On 20×5 the status keeps to its one row and the screen within the terminal.
  r.rerender(at({ columns: 20, rows: 5 }));
  const small = await frameMatches(r.lastFrame, (f) => expect(lines(f)[1]).toMatch(/^added/));
  expect(lines(small).length).toBeLessThanOrEqual(4);
  for (const l of lines(small)) expect(l.length).toBeLessThanOrEqual(20);
  r.unmount();
});

/** The store's service, counting the effective sets asked of it. */
class CountingService extends InvariantService {
  effectiveReads = 0;
  override effective(...args: Parameters<InvariantService['effective']>): ReturnType<InvariantService['effective']> {
    this.effectiveReads++;
    return super.effective(...args);
  }
}

test('e closes a set it opened before the store was read again: a store another process broke meanwhile leaves the list, the set not loaded', async () => {
  const root = exampleStore();
  const service = new CountingService(root);
  const { r, events } = open(root, { service });
  await frameHas(r.lastFrame, '6 shown of 6');
  r.stdin.write('jj');
  await frameHas(r.lastFrame, '› E All API changes need tests');
  mkdirSync(join(root, 'projects/other'));
  writeFileSync(join(root, 'projects/other/01M9AAAAAAAAAAAAAAAAAAAAAA.yaml'), 'text: [broken\n');
  // The second e, made while the first one's read of the store is under way, takes the set back.
  r.stdin.write('e');
  r.stdin.write('e');
  const frame = await frameHas(r.lastFrame, 'the list is as read before');
  expect(service.effectiveReads).toBe(0);
  expect(frame).toContain('agents · all scopes');
  expect(events).toEqual([]);
  r.unmount();
});

test('a copy shadowed by more projects than the detail pane has rows for: the last row counts the rest', async () => {
  const root = exampleStore();
  // Twelve projects each hold a copy of a global text: the global copy is shadowed by twelve.
  const projects = Array.from({ length: 12 }, (_, i) => `team${String(i).padStart(2, '0')}`);
  projects.forEach((p, i) => {
    const id = `01M8KM${String(i).padStart(20, '0')}`;
    mkdirSync(join(root, 'projects', p), { recursive: true });
    writeFileSync(join(root, 'projects', p, `${id}.yaml`), invariantYaml(id, 'Never delete production data'));
  });
  for (const rows of [24, 30]) {
    const { r } = open(root, { size: { columns: 80, rows } });
    const frame = await frameHas(r.lastFrame, '› E (shadowed) Never delete production data');
    const all = lines(frame);
    expect(all.length).toBeLessThanOrEqual(rows);
    const pane = all.slice(all.indexOf('─'.repeat(80)) + 1, -1);
    const named = pane.filter((l) => l.startsWith('shadowed by project team'));
    const more = pane.find((l) => l.startsWith('… and '));
    expect(more).toMatch(new RegExp(`^… and (\\d+) more \\(invariant show ${G1} lists them all\\)$`));
    // Every copy is either named or counted, and the count is the pane's last row.
    expect(named.length + Number(/\d+/.exec(more!)![0])).toBe(projects.length);
    expect(pane.filter((l) => l.trim() !== '').at(-1)).toBe(more);
    r.unmount();
  }
});

test('d on an invariant another process changed meanwhile, answered n: the list follows what the confirmation showed', async () => {
  const root = exampleStore();
  const { r } = open(root);
  await frameHas(r.lastFrame, '6 shown of 6', '› E Never delete production data');
  // Another process changes the project's copy: it no longer repeats the global text, which so comes back into effect.
  writeFileSync(join(root, `projects/myapp/${P2}.yaml`), invariantYaml(P2, 'Log every change to the ledger', { severity: 'warning' }));
  r.stdin.write('G');
  r.stdin.write('kk');
  await frameHas(r.lastFrame, '› W Log all changes');
  r.stdin.write('d');
  await frameHas(r.lastFrame, 'Log every change to the ledger', 'Remove this invariant? [y/N]');
  r.stdin.write('n');
  const frame = await frameHas(r.lastFrame, 'Nothing removed.', '› W Log every change to the ledger');
  expect(frame).not.toContain('(shadowed) Log all changes');
  expect(frame).toContain('  E Log all changes');
  expect(readFileSync(join(root, `projects/myapp/${P2}.yaml`), 'utf8')).toContain('Log every change to the ledger');
  r.unmount();
});
