import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PtySession } from '../helpers/pty.ts';
import { G1, P2, exampleStore } from '../tui/helpers.ts';

// The add and edit forms in a real terminal (tmux): flags fill the form, n and Esc cancel with exit 1.
const files = (root: string) => readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();

function start(args: string[]) {
  const store = exampleStore();
  const pty = PtySession.start(['--store', store, ...args], { cwd: join(store, '..') });
  return { store, pty };
}

function expectRestored(pty: PtySession, mode: string) {
  expect(mode).toBe('icanon echo');
  expect(pty.format('#{cursor_flag} #{alternate_on}')).toBe('1 0');
}

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('the add form in a terminal', { timeout: 180_000 }, () => {
  test('text pasted over several lines fills the text field as one line, and the form stays on it', async () => {
    const { store, pty } = start(['invariant', 'add', '--global']);
    await pty.waitFor('Add an invariant · global');
    const before = files(store);
    pty.paste('Keep every\nmigration\treversible\n');
    await pty.waitFor('Text: Keep every migration reversible');
    await pty.waitFor('✓ new in this scope');
    // Still the text: the line breaks pressed no Enter, so severity is not asked yet.
    expect(pty.screen()).not.toContain('Severity');
    pty.type('!');
    await pty.waitFor('Text: Keep every migration reversible!');
    pty.keys('Escape');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(1);
    expect(screen).toContain('Nothing added.');
    expectRestored(pty, mode);
    expect(files(store)).toEqual(before);
  });

  test('narrowing the terminal while the form is open redraws it to the new width, leaving no copies behind', async () => {
    const store = exampleStore();
    const pty = PtySession.start(['--store', store, 'invariant', 'add', '--project', 'myapp'], {
      cwd: join(store, '..'),
      columns: 100,
      rows: 20,
    });
    await pty.waitFor('Add an invariant · project myapp');
    // A near-duplicate: its feedback line is wider than the narrowed terminal.
    pty.type('All API changes need tests!');
    await pty.waitFor('≈ nearly repeats');
    pty.resize(40, 20);
    // The form drawn at the new width: the line cut at 40 columns, not wrapped.
    await pty.waitFor(/^≈ nearly repeats project myapp 01M8K\w*…$/m);
    pty.keys('BSpace');
    pty.type('?');
    const screen = await pty.waitFor('Text: All API changes need tests?');
    expect(screen.split('\n').filter((l) => l.startsWith('Add an invariant')).length).toBe(1);
    expect(screen).not.toContain('tests!');
    pty.keys('Escape');
    expect((await pty.exit()).code).toBe(1);
  });

  test('narrowing the terminal below earlier output erases the whole form, its wide line reflowed into more rows', async () => {
    // tmux, as most terminals, reflows a line wider than the new width into more rows, keeping the cursor's row: the
    // form's first rows move up into the earlier output, where an erase by the form's count of lines left them.
    const store = exampleStore();
    const above = ['$ earlier command', 'its output 1', 'its output 2', 'its output 3'];
    const pty = PtySession.start(['--store', store, 'invariant', 'add', '--project', 'myapp'], {
      cwd: join(store, '..'),
      columns: 100,
      rows: 20,
      above,
    });
    await pty.waitFor('Add an invariant · project myapp');
    pty.type('All API changes need tests!');
    await pty.waitFor(/≈ nearly repeats .*\(the same/);
    pty.resize(40, 20);
    await pty.waitFor(/^≈ nearly repeats project myapp 01M8K\w*…$/m);
    pty.type('?');
    const screen = await pty.waitFor('Text: All API changes need tests!?');
    const rows = screen.split('\n');
    expect(rows.filter((l) => l.startsWith('Add an invariant')).length).toBe(1);
    expect(rows.filter((l) => l.startsWith('Text:')).length).toBe(1);
    // The earlier output the reflow left on the screen stays, right above the form.
    expect(rows[rows.indexOf('Add an invariant · project myapp') - 1]).toBe('its output 3');
    pty.keys('Escape');
    expect((await pty.exit()).code).toBe(1);
  });

  test('flags given without a text fill the form: scope, severity and tags', async () => {
    const { store, pty } = start(['invariant', 'add', '--project', 'web', '--severity', 'warning', '--tag', 'perf']);
    await pty.waitFor('Add an invariant · project web');
    pty.type('Cache every API response');
    await pty.waitFor('Text: Cache every API response');
    await pty.waitFor('✓ new in this scope');
    pty.keys('Enter');
    await pty.waitFor('› warning');
    pty.keys('Enter');
    await pty.waitFor('Tags (comma-separated, Enter for none): perf');
    pty.keys('Enter');
    await pty.waitFor('Rationale');
    pty.keys('Enter');
    // The guard: a glob for files, then Enter on empty lines through the other kinds.
    await pty.waitFor('Guard 1/4');
    pty.type('cache/**');
    await pty.waitFor('> cache/**');
    pty.keys('Enter');
    await pty.waitFor('  write  cache/**');
    for (const k of [2, 3, 4]) {
      pty.keys('Enter');
      await pty.waitFor(`Guard ${k}/4`);
    }
    pty.keys('Enter');
    const confirm = await pty.waitFor('Add it? [Y/n]');
    expect(confirm).toContain('guard     write: cache/**');
    expect(confirm).toContain('severity  warning');
    expect(confirm).toContain('tags      perf');
    pty.keys('Enter');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
    const id = /added (\w{26}) to project web/.exec(screen)![1]!;
    const text = readFileSync(join(store, `projects/web/${id}.yaml`), 'utf8');
    expect(text).toContain('severity: warning');
    expect(text).toMatch(/tags:\n\s+- perf/);
    expect(text).toMatch(/guard:\n\s+write:\n\s+- cache\/\*\*/);
  });

  const toConfirm: [string, string][] = [
    ['Enter', 'Severity'],
    ['Enter', 'Tags'],
    ['Enter', 'Rationale'],
    ['Enter', 'Guard 1/4'],
    ['Enter', 'Guard 2/4'],
    ['Enter', 'Guard 3/4'],
    ['Enter', 'Guard 4/4'],
    ['Enter', 'Add it? [Y/n]'],
  ];
  test.each([
    ['n at the confirmation', [...toConfirm, ['n', '[exit']]],
    ['Esc at the text', [['Escape', '[exit']]],
    ['Esc at the confirmation', [...toConfirm, ['Escape', '[exit']]],
  ] as [string, [string, string][]][])('%s: "Nothing added.", exit 1, nothing written', async (_name, keys) => {
    const { store, pty } = start(['invariant', 'add', '--global']);
    const before = files(store);
    await pty.waitFor('Add an invariant · global');
    pty.type('A rule never written');
    await pty.waitFor('Text: A rule never written');
    await pty.waitFor('✓ new in this scope');
    // One key per screen: the step each key leads to is on screen before the next.
    for (const [k, next] of keys) {
      pty.keys(k);
      await pty.waitFor(next);
    }
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(1);
    expect(screen).toContain('Nothing added.');
    expect(screen).not.toContain('error:');
    expectRestored(pty, mode);
    expect(files(store)).toEqual(before);
  });
});

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('the edit form in a terminal', { timeout: 180_000 }, () => {
  test('invariant edit ID without flags opens the form filled with its values; the change is saved', async () => {
    const { store, pty } = start(['invariant', 'edit', P2.slice(0, 7)]);
    await pty.waitFor(`Edit ${P2} · project myapp`);
    await pty.waitFor('Text: Log all changes');
    await pty.waitFor(`↓ it shadows the copy in global`);
    pty.keys('Enter');
    await pty.waitFor('› warning');
    pty.keys('Down');
    await pty.waitFor('› info');
    pty.keys('Enter');
    await pty.waitFor('Tags (comma-separated');
    pty.type('audit');
    await pty.waitFor('Enter for none): audit');
    pty.keys('Enter');
    await pty.waitFor('Rationale');
    pty.keys('Enter');
    for (const k of [1, 2, 3, 4]) {
      await pty.waitFor(`Guard ${k}/4`);
      pty.keys('Enter');
    }
    await pty.waitFor('State (↑↓, Enter):');
    pty.keys('Enter');
    const confirm = await pty.waitFor('Save the changes? [Y/n]');
    expect(confirm).toContain('severity  info');
    pty.keys('y');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
    expect(screen).toContain(`edited ${P2} in project myapp: severity, tags`);
    const text = readFileSync(join(store, `projects/myapp/${P2}.yaml`), 'utf8');
    expect(text).toContain('severity: info');
    expect(text).toContain(`id: ${P2}`);
  });

  test('Esc: "Nothing changed.", exit 1, the file untouched', async () => {
    const { store, pty } = start(['invariant', 'edit', G1]);
    const before = readFileSync(join(store, `global/${G1}.yaml`), 'utf8');
    await pty.waitFor('Text: Never delete production data');
    pty.keys('Escape');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(1);
    expect(screen).toContain('Nothing changed.');
    expectRestored(pty, mode);
    expect(readFileSync(join(store, `global/${G1}.yaml`), 'utf8')).toBe(before);
  });
});

describe("the add form at a policy source's template", { timeout: 180_000 }, () => {
  test('is refused before it opens: the template is changed in the source', async () => {
    const { pinnedApp } = await import('../extends/repos.ts');
    const app = await pinnedApp();
    const before = files(join(app, '.agents'));
    const pty = PtySession.start(['invariant', 'add', '--action', 'policy:org/release'], { cwd: app });
    const { code, screen } = await pty.exit();
    expect(code).toBe(2);
    expect(screen).toContain('policy source policy');
    expect(screen).not.toContain('Add an invariant');
    expect(files(join(app, '.agents'))).toEqual(before);
  });
});

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('a terminal that reports 0×0 (stty cols 0 rows 0)', { timeout: 180_000 }, () => {
  test.each([
    ['the add form', ['invariant', 'add'], 'Scope (↑↓, Enter):', 'Escape', 1],
    ['the remove confirmation', ['invariant', 'remove', G1], 'Remove this invariant? [y/N]', 'n', 1],
    ['the browser', ['tui'], 'agents · all scopes', 'q', 0],
  ] as const)('%s is drawn at 80×24, as every screen is', async (_name, args, shown, key, exitCode) => {
    const store = exampleStore();
    const pty = PtySession.start(['--store', store, ...args], { cwd: join(store, '..'), stty: 'cols 0 rows 0' });
    const screen = await pty.waitFor(shown);
    // The key line too, the screen's last line: a layout 0 columns wide drew blank lines.
    expect(screen).toMatch(/Esc cancel|\[y\/N\]|q quit/);
    pty.keys(key);
    const { code, mode } = await pty.exit();
    expect(code).toBe(exitCode);
    expectRestored(pty, mode);
  });
});
