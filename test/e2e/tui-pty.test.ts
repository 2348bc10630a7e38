import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitInit } from '../helpers/git.ts';
import { PtySession } from '../helpers/pty.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';
import { G1, G2, P2, exampleStore } from '../tui/helpers.ts';

// The real bin/agents.js in a real terminal (tmux): every wait polls the screen with a bounded timeout.
const files = (root: string) => readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();

function start(args: string[], env: Record<string, string> = {}) {
  const store = exampleStore();
  const pty = PtySession.start(['--store', store, ...args], { cwd: join(store, '..'), env });
  return { store, pty };
}

/** Cursor shown, main screen, cooked mode with echo: the terminal is as it was. */
function expectRestored(pty: PtySession, mode: string) {
  expect(mode).toBe('icanon echo');
  expect(pty.format('#{cursor_flag} #{alternate_on}')).toBe('1 0');
}

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('agents invariant add (the form)', { timeout: 180_000 }, () => {
  test('adds an invariant through scope, text, severity, tags and confirm', async () => {
    const { store, pty } = start(['invariant', 'add']);
    await pty.waitFor('Scope (↑↓, Enter):');
    pty.keys('Down');
    await pty.waitFor('› project myapp');
    pty.keys('Enter');
    await pty.waitFor('Add an invariant · project myapp');
    pty.type('never delete production DATA');
    await pty.waitFor('↓ it shadows the copy in global (01M8KJT9G0XNWEM589ZS7FV0VT)');
    pty.keys('Enter');
    await pty.waitFor('Severity (↑↓, Enter):');
    pty.keys('Down');
    await pty.waitFor('› warning');
    pty.keys('Enter');
    await pty.waitFor('Tags (comma-separated');
    pty.type('data');
    await pty.waitFor('Enter for none): data');
    pty.keys('Enter');
    await pty.waitFor('Rationale (why it exists');
    pty.type('Restores take days');
    await pty.waitFor('Enter for none): Restores take days');
    pty.keys('Enter');
    for (const k of [1, 2, 3, 4]) {
      await pty.waitFor(`Guard ${k}/4`);
      pty.keys('Enter');
    }
    await pty.waitFor('Add it? [Y/n]');
    pty.keys('Enter');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
    const m = /added (\w{26}) to project myapp/.exec(screen);
    expect(m).not.toBeNull();
    expect(screen).toContain(`note: it shadows the copy in global (${G1})`);
    const text = readFileSync(join(store, `projects/myapp/${m![1]}.yaml`), 'utf8');
    expect(text).toContain('text: never delete production DATA');
    expect(text).toContain('severity: warning');
    expect(text).toMatch(/tags:\s*\n\s*- data|tags: \[data\]/);
    expect(text).toContain('rationale: Restores take days');
  });

  test('a duplicate is blocked while typing', async () => {
    const { store, pty } = start(['invariant', 'add', '--global']);
    const before = files(store);
    await pty.waitFor('Add an invariant · global');
    pty.type('Log all changes');
    await pty.waitFor(`✗ duplicate: global already holds this text as ${G2}`);
    pty.keys('Enter');
    await pty.waitFor(`↑ it is shadowed by the copy in project myapp (${P2})`);
    expect(pty.screen()).not.toContain('Severity');
    pty.keys('C-c');
    const { code, mode } = await pty.exit();
    expect(code).toBe(130);
    expectRestored(pty, mode);
    expect(files(store)).toEqual(before);
  });

  test('Ctrl-C cancels with exit 130 and writes nothing', async () => {
    const { store, pty } = start(['invariant', 'add']);
    const before = files(store);
    await pty.waitFor('Scope (↑↓, Enter):');
    pty.keys('Enter');
    await pty.waitFor('Text:');
    pty.type('Half-typed rule');
    await pty.waitFor('✓ new in this scope');
    pty.keys('C-c');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(130);
    expect(screen).toContain('Cancelled.');
    expectRestored(pty, mode);
    expect(files(store)).toEqual(before);
  });
});

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('agents tui (the browser)', { timeout: 180_000 }, () => {
  test('browses, filters live, shows a bad regex inline, quits with q on the restored screen', async () => {
    const { pty } = start(['tui']);
    await pty.waitFor('agents · all scopes · 6 shown of 6');
    expect(pty.format('#{alternate_on}')).toBe('1');
    pty.keys('j');
    await pty.waitFor('› E (shadowed) Log all changes');
    await pty.waitFor(`shadowed by project myapp ${P2}`);
    pty.keys('/');
    pty.type('log');
    await pty.waitFor('2 shown of 6');
    pty.type('(');
    await pty.waitFor('✗ invalid regex "log(":');
    pty.keys('BSpace');
    await pty.waitFor('2 shown of 6');
    pty.keys('Enter');
    pty.keys('e');
    await pty.waitFor('effective set of project myapp · 1 of 3 in effect, 1 of 1 hidden');
    await pty.waitFor('↳ hidden by 01M8KJZ: Log all changes');
    pty.keys('q');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
    expect(screen).not.toContain('agents · ');
  });

  test('a slow filter pattern holds up no key: what is typed is drawn before the pattern is run over the store', async () => {
    const store = exampleStore();
    writeFileSync(join(store, `global/${G1}.yaml`), invariantYaml(G1, `${'a'.repeat(40)}c`));
    const log = join(tempDir('agents-frames-'), 'frames');
    const pty = PtySession.start(['--store', store, 'tui'], {
      cwd: join(store, '..'),
      // The pattern never ends over this text: any limit stops it, and the browser spins until it.
      env: { AGENTS_REGEX_TIME_LIMIT_MS: '200' },
      record: log,
    });
    await pty.waitFor('6 shown of 6');
    pty.keys('/');
    pty.type('(a+)+b');
    await pty.waitFor('was stopped');
    pty.keys('Escape');
    await pty.waitFor(/6 shown of 6\n\s*\n/);
    pty.keys('q');
    const { code, mode } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
    // Each frame is one synchronized update: the pattern typed whole was drawn on a frame of its own, before the run.
    const frames = readFileSync(log, 'utf8').split('\u001b[?2026h');
    const typed = frames.findIndex((f) => f.includes('/(a+)+b') && !f.includes('was stopped'));
    const stopped = frames.findIndex((f) => f.includes('was stopped'));
    expect(typed).toBeGreaterThan(-1);
    expect(typed).toBeLessThan(stopped);
  });

  test('list --interactive starts at the given scope; d then y removes; resize redraws', async () => {
    const { store, pty } = start(['invariant', 'list', '--interactive', '--project', 'myapp']);
    await pty.waitFor('agents · project myapp · 2 shown of 6');
    pty.resize(60, 20);
    await pty.waitFor(`${'─'.repeat(60)}\n`);
    pty.keys('j');
    await pty.waitFor('› W Log all changes');
    pty.keys('d');
    await pty.waitFor('Remove this invariant? [y/N]');
    pty.keys('y');
    await pty.waitFor(`removed ${P2}`);
    await pty.waitFor('1 shown of 5');
    expect(existsSync(join(store, `projects/myapp/${P2}.yaml`))).toBe(false);
    pty.keys('Escape');
    const { code, mode } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
  });

  test('a paste is text, never keys: in the list and at the remove confirmation it does nothing; in the filter it is the pattern', async () => {
    const { store, pty } = start(['tui']);
    const before = files(store);
    await pty.waitFor('6 shown of 6');
    // Pasted where no field is: as keys, "d" would ask, "y" remove, "q" quit.
    pty.paste('ddyq');
    pty.keys('d');
    await pty.waitFor('Remove this invariant? [y/N]');
    pty.paste('y');
    pty.keys('n');
    await pty.waitFor('Nothing removed.');
    pty.keys('/');
    pty.paste('log');
    await pty.waitFor('2 shown of 6');
    pty.keys('Enter', 'q');
    const { code, mode } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
    expect(files(store)).toEqual(before);
  });

  test('Ctrl-C in the browser: exit 130, terminal restored; a row holding an emoji with a skin tone fits the terminal', async () => {
    // tmux draws "👍🏽" in four columns: a row measured as two outgrew the terminal and pushed the title off the screen.
    const store = exampleStore();
    const id = '01M8KK7000000000000000000Z';
    writeFileSync(join(store, `global/${id}.yaml`), invariantYaml(id, `Thumbs 👍🏽 up ${'for a text longer than the row '.repeat(3)}`));
    const pty = PtySession.start(['--store', store, 'tui'], { cwd: join(store, '..') });
    const before = files(store);
    const screen = await pty.waitFor('7 shown of 7');
    const rows = screen.split('\n');
    expect(rows[0]).toBe('agents · all scopes · 7 shown of 7');
    expect(rows.find((l) => l.includes('Thumbs 👍🏽 up'))).toMatch(/…\s+01M8KK7$/);
    pty.keys('C-c');
    const { code, mode } = await pty.exit();
    expect(code).toBe(130);
    expectRestored(pty, mode);
    expect(files(store)).toEqual(before);
  });

  test('SIGTERM, SIGHUP or SIGQUIT to the browser, or to a form: the signal’s exit code (143, 129, 131) with the terminal given back (main screen, cursor, tty)', async () => {
    for (const [args, shown, signal, exit] of [
      [['tui'], '6 shown of 6', 'SIGTERM', 143],
      [['invariant', 'add', '--global'], 'Add an invariant · global', 'SIGHUP', 129],
      [['tui'], '6 shown of 6', 'SIGQUIT', 131],
    ] as const) {
      const { store, pty } = start([...args]);
      const before = files(store);
      await pty.waitFor(shown);
      pty.signal(signal);
      const { code, mode, screen } = await pty.exit();
      expect({ args, code }).toEqual({ args, code: exit });
      expect(screen).toContain(`Cancelled by ${signal}`);
      expectRestored(pty, mode);
      expect(files(store)).toEqual(before);
    }
  });

  test('an invalid store: the error (exit 3) is printed on the restored terminal', async () => {
    const { pty } = start(['tui']);
    const bad = exampleStore();
    writeFileSync(join(bad, 'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml'), 'id: [unclosed\n');
    const broken = PtySession.start(['--store', bad, 'tui'], { cwd: join(bad, '..') });
    const { code, mode, screen } = await broken.exit();
    expect(code).toBe(3);
    expect(screen.replace(/\n/g, '')).toContain('error: cannot list invariants: global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml:1:5 is invalid');
    expect(screen).toContain('yaml-syntax');
    expectRestored(broken, mode);
    pty.keys('q');
    expect((await pty.exit()).code).toBe(0);
  });

  test('TERM=dumb: no screen opens (a terminal that cannot move the cursor would show its escapes as text); exit 2', async () => {
    for (const [args, code] of [
      [['tui'], 2],
      [['invariant', 'add', '--global'], 2],
      [['invariant', 'remove', G1], 2],
    ] as const) {
      const { store, pty } = start([...args], { TERM: 'dumb' });
      const before = files(store);
      const { code: exit, screen } = await pty.exit();
      expect({ args, exit }).toEqual({ args, exit: code });
      expect(screen).toContain('error:');
      expect(pty.format('#{alternate_on}')).toBe('0');
      expect(files(store)).toEqual(before);
    }
  });

  test('list --interactive with a plan that does not exist: refused as list refuses it (exit 2), no browser on an empty scope', async () => {
    const { pty } = start(['invariant', 'list', '--interactive', '--plan', '01M8KK5920RS6CGAVDFVYYJ0B5']);
    const { code, screen } = await pty.exit();
    expect(code).toBe(2);
    expect(screen).toContain('no plan with id 01M8KK5920RS6CGAVDFVYYJ0B5');
    expect(screen).not.toContain('agents · ');
  });

  test('a notice said while the browser is open (a policy source not fetched) is printed after it closes, not into its frame; the browser says it on a line of its own', async () => {
    const store = exampleStore();
    const top = join(store, '..');
    gitInit(top);
    writeFileSync(join(store, 'config.yaml'), 'version: 1\nextends:\n  - url: /nonexistent/policy\n    ref: v1\n');
    writeFileSync(
      join(store, 'extends.lock.yaml'),
      'version: 1\nsources:\n  - name: policy\n    url: /nonexistent/policy\n    ref: v1\n    kind: tag\n    commit: 261d9cb8cf0b65aa694623502edcad6481226482\n',
    );
    const pty = PtySession.start(['--store', store, 'tui'], { cwd: top });
    await pty.waitFor('6 shown of 6');
    // The list lacks the inherited invariants: said while it is open, not only once it has closed.
    const open = await pty.waitFor(/^! the invariants inherited from policy sources are not listed/m);
    expect(open.split('\n')[2]).toMatch(/^! /);
    pty.keys('q');
    const { code, screen } = await pty.exit();
    expect(code).toBe(0);
    // On the main screen once the browser has closed: the notice was held, not written under the screen.
    expect(screen).toContain('agents: the invariants inherited from policy sources are not listed');
  });

  test('Ctrl-Z stops the job with the terminal given back (line mode, the main screen, the cursor); fg brings the browser back as it was', async () => {
    const store = exampleStore();
    const pty = PtySession.start(['--store', store, 'tui'], { cwd: join(store, '..'), jobControl: true });
    await pty.waitFor('6 shown of 6');
    pty.keys('j');
    await pty.waitFor('› E (shadowed) Log all changes');
    pty.keys('C-z');
    const stopped = await pty.waitFor(/\[stopped\]\n(\S.*)\n/);
    expect(/\[stopped\]\n(\S.*)\n/.exec(stopped)![1]!.trim()).toBe('icanon echo');
    expect(pty.format('#{cursor_flag} #{alternate_on}')).toBe('1 0');
    pty.keys('Enter');
    // Back in the foreground: the browser drawn again, the selection where it was, and it takes keys.
    const back = await pty.waitFor('› E (shadowed) Log all changes');
    expect(back).toContain('6 shown of 6');
    expect(pty.format('#{alternate_on}')).toBe('1');
    pty.keys('q');
    const { code, mode } = await pty.exit();
    expect(code).toBe(0);
    expectRestored(pty, mode);
  });

  test('colours only without NO_COLOR', async () => {
    const plain = start(['tui']).pty;
    await plain.waitFor('6 shown of 6');
    expect(plain.screen(true)).not.toMatch(/\u001b\[(3[0-7]|9[0-7]|38;)/);
    plain.keys('q');
    await plain.exit();
    const coloured = start(['tui'], { NO_COLOR: '' }).pty;
    await coloured.waitFor('6 shown of 6');
    expect(coloured.screen(true)).toMatch(/\u001b\[(3[0-7]|9[0-7]|38;)/);
    coloured.keys('q');
    expect((await coloured.exit()).code).toBe(0);
  });
});

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('agents invariant remove ID (the confirmation)', { timeout: 180_000 }, () => {
  test.each([
    ['y', 0, false, 'removed'],
    ['n', 1, true, 'Nothing removed.'],
    ['Enter', 1, true, 'Nothing removed.'],
    ['Escape', 1, true, 'Nothing removed.'],
    ['C-c', 130, true, 'Cancelled.'],
  ])('key %s: exit %i, file kept: %s', async (key, exit, kept, message) => {
    const { store, pty } = start(['invariant', 'remove', P2]);
    const screen = await pty.waitFor('Remove this invariant? [y/N]');
    expect(screen).toContain(`Remove ${P2} from project myapp?`);
    expect(screen).toContain('It shadows these now; they come back into effect:');
    expect(screen).toContain(`global ${G2}  global/${G2}.yaml`);
    pty.keys(key);
    const { code, mode, screen: after } = await pty.exit();
    expect(code).toBe(exit);
    expect(after).toContain(message);
    expectRestored(pty, mode);
    expect(existsSync(join(store, `projects/myapp/${P2}.yaml`))).toBe(kept);
  });

  test('Ctrl-Z takes the confirmation off the screen for the shell; fg draws it once, not over what is left of it', async () => {
    const store = exampleStore();
    const pty = PtySession.start(['--store', store, 'invariant', 'remove', P2], { cwd: join(store, '..'), jobControl: true });
    await pty.waitFor('Remove this invariant? [y/N]');
    pty.keys('C-z');
    const stopped = await pty.waitFor(/\[stopped\]\n(\S.*)\n/);
    expect(stopped).not.toContain('Remove this invariant?');
    pty.keys('Enter');
    const back = await pty.waitFor('Remove this invariant? [y/N]');
    expect(back.split('\n').filter((l) => l === `Remove ${P2} from project myapp?`)).toHaveLength(1);
    expect(back.indexOf('[stopped]')).toBeLessThan(back.indexOf(`Remove ${P2} from project myapp?`));
    pty.keys('n');
    const { code, mode } = await pty.exit();
    expect(code).toBe(1);
    expectRestored(pty, mode);
    expect(existsSync(join(store, `projects/myapp/${P2}.yaml`))).toBe(true);
  });

  test('a confirmation taller than the terminal leaves its scrollback alone, and what follows it starts a line of its own', async () => {
    const store = exampleStore();
    // The longest text the store takes: on 80 columns its confirmation runs past 24 rows.
    const text = 'Keep every record of every change. '.repeat(60).slice(0, 2000).trim();
    writeFileSync(join(store, `global/${G1}.yaml`), `id: ${G1}\ntext: ${text}\nseverity: error\nactive: true\n`);
    const log = join(tempDir('agents-pty-log-'), 'pty.log');
    const pty = PtySession.start(['--store', store, 'invariant', 'remove', G1], { cwd: join(store, '..'), record: log });
    await pty.waitFor('Remove this invariant? [y/N]');
    pty.keys('n');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(1);
    expect(screen.split('\n')).toContain('Nothing removed.');
    expectRestored(pty, mode);
    // Erasing the scrollback (ED 3) would take the output of the commands run before with it.
    await expect.poll(() => readFileSync(log, 'utf8'), { timeout: 10_000 }).toContain('[exit 1]');
    expect(readFileSync(log, 'utf8')).not.toContain('\u001b[3J');
    expect(existsSync(join(store, `global/${G1}.yaml`))).toBe(true);
  });
});
