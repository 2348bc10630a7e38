import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { InvariantService, type AddResult, type EditResult } from '../../src/service/invariant-service.ts';
import { AddForm } from '../../src/tui/AddForm.tsx';
import { Browser } from '../../src/tui/Browser.tsx';
import { BROWSER_KEYS } from '../../src/tui/Help.tsx';
import { P2, PLAN, exampleStore, frameHas, frameMatches } from './helpers.ts';

// Every key a screen shows as a hint does what it says: each is pressed here.

const DOWN = '\u001b[B';
const UP = '\u001b[A';
const ESC = '\u001b';
const SHIFT_TAB = '\u001b[Z';

function browser() {
  const root = exampleStore();
  const events: string[] = [];
  const r = render(
    <Browser
      service={new InvariantService(root)}
      size={{ columns: 100, rows: 30 }}
      onQuit={() => events.push('quit')}
      onError={(e) => events.push(`error ${String(e)}`)}
    />,
  );
  return { r, events, root };
}

/** What pressing each hinted key must do, from the list (the key line names them "↑↓ move", "/ filter", …). */
const KEY_LINE_CHECKS: Record<string, (b: ReturnType<typeof browser>) => Promise<void>> = {
  '↑↓': async ({ r }) => {
    r.stdin.write(DOWN);
    await frameHas(r.lastFrame, '› E (shadowed) Log all changes');
    r.stdin.write(UP);
    await frameHas(r.lastFrame, '› E Never delete production data');
  },
  '/': async ({ r }) => {
    r.stdin.write('/');
    await frameHas(r.lastFrame, '/');
    r.stdin.write('log');
    await frameHas(r.lastFrame, '2 shown of 6');
    r.stdin.write(ESC);
    await frameHas(r.lastFrame, '6 shown of 6');
  },
  s: async ({ r }) => {
    r.stdin.write('s');
    await frameHas(r.lastFrame, 'Show which scope?');
    r.stdin.write(ESC);
    await frameHas(r.lastFrame, '6 shown of 6');
  },
  e: async ({ r }) => {
    r.stdin.write('g');
    await frameHas(r.lastFrame, '› E Never delete production data');
    r.stdin.write('jj');
    await frameHas(r.lastFrame, '› E All API changes need tests');
    r.stdin.write('e');
    await frameHas(r.lastFrame, 'effective set of project myapp');
    r.stdin.write('e');
    await frameHas(r.lastFrame, 'all scopes · 6 shown of 6');
    r.stdin.write('g');
  },
  a: async ({ r }) => {
    r.stdin.write('a');
    await frameHas(r.lastFrame, 'Add an invariant');
    r.stdin.write(ESC);
    await frameHas(r.lastFrame, 'Nothing added.', '6 shown of 6');
  },
  d: async ({ r }) => {
    r.stdin.write('d');
    await frameHas(r.lastFrame, 'Remove this invariant? [y/N]');
    r.stdin.write('n');
    await frameHas(r.lastFrame, 'Nothing removed.', '6 shown of 6');
  },
  '?': async ({ r }) => {
    r.stdin.write('?');
    await frameHas(r.lastFrame, 'Press any key to go back.');
    r.stdin.write('x');
    await frameHas(r.lastFrame, '6 shown of 6');
  },
  q: async ({ r, events }) => {
    r.stdin.write('q');
    await expect.poll(() => events).toContain('quit');
  },
};

describe('the browser', () => {
  test('every key of the key line works', async () => {
    const b = browser();
    const frame = await frameHas(b.r.lastFrame, '6 shown of 6');
    const keyLine = frame.split('\n').at(-1)!;
    const keys = keyLine.split(' · ').map((part) => part.split(' ')[0]!);
    expect(keys).toEqual(Object.keys(KEY_LINE_CHECKS));
    for (const k of keys) await KEY_LINE_CHECKS[k]!(b);
    b.r.unmount();
  });

  test('every key of the help screen works (Ctrl-C: in the pseudo-terminal test, where it ends the process)', async () => {
    const b = browser();
    const { r, events } = b;
    await frameHas(r.lastFrame, '6 shown of 6');
    const checks: Record<string, () => Promise<void>> = {
      '↑ ↓  k j': async () => {
        r.stdin.write('j');
        await frameHas(r.lastFrame, '› E (shadowed) Log all changes');
        r.stdin.write('k');
        await frameHas(r.lastFrame, '› E Never delete production data');
      },
      'PgUp PgDn  g G': async () => {
        r.stdin.write('G');
        await frameHas(r.lastFrame, '› E Use Python 3.13 only');
        r.stdin.write('g');
        await frameHas(r.lastFrame, '› E Never delete production data');
        r.stdin.write('\u001b[6~');
        await frameHas(r.lastFrame, '› E Use Python 3.13 only');
        r.stdin.write('\u001b[5~');
        await frameHas(r.lastFrame, '› E Never delete production data');
      },
      Enter: async () => {
        r.stdin.write('\r');
        await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('path: global/'));
        r.stdin.write('\r');
        await frameHas(r.lastFrame, 'path: global/');
      },
      '/': () => KEY_LINE_CHECKS['/']!(b),
      s: () => KEY_LINE_CHECKS.s!(b),
      e: () => KEY_LINE_CHECKS.e!(b),
      a: () => KEY_LINE_CHECKS.a!(b),
      d: () => KEY_LINE_CHECKS.d!(b),
      '?': () => KEY_LINE_CHECKS['?']!(b),
      'q  Esc': async () => {
        r.stdin.write('/');
        await frameHas(r.lastFrame, '/');
        r.stdin.write('log');
        await frameHas(r.lastFrame, '2 shown of 6');
        r.stdin.write('\r');
        r.stdin.write(ESC);
        await frameHas(r.lastFrame, '6 shown of 6');
        expect(events).toEqual([]);
        r.stdin.write(ESC);
        await expect.poll(() => events).toEqual(['quit']);
      },
    };
    expect(BROWSER_KEYS.map(([k]) => k)).toEqual([...Object.keys(checks), 'Ctrl-C']);
    for (const [k] of BROWSER_KEYS) if (k !== 'Ctrl-C') await checks[k]!();
    r.unmount();
  });

  test('the scope picker: e shows the effective set of the project or plan under the cursor', async () => {
    const { r } = browser();
    await frameHas(r.lastFrame, '6 shown of 6');
    r.stdin.write('s');
    await frameHas(r.lastFrame, 'e effective set of a project or plan', 'project myapp  e: effective set');
    r.stdin.write('jj');
    await frameHas(r.lastFrame, '› project myapp');
    r.stdin.write('e');
    await frameHas(r.lastFrame, 'effective set of project myapp · 3 in effect, 1 hidden');
    r.stdin.write('s');
    await frameHas(r.lastFrame, `plan ${PLAN}  e: effective set`);
    r.stdin.write('\u001b[F');
    await frameHas(r.lastFrame, `› plan ${PLAN}`);
    r.stdin.write('e');
    await frameHas(r.lastFrame, `effective set of plan ${PLAN} · 4 in effect, 1 hidden`);
    // On a scope without an effective set, e says why instead of doing nothing.
    r.stdin.write('s');
    await frameHas(r.lastFrame, 'Show which scope?');
    r.stdin.write('\u001b[H');
    await frameHas(r.lastFrame, '› all scopes');
    r.stdin.write('e');
    await frameHas(r.lastFrame, 'pick one of those and press e');
    r.unmount();
  });
});

describe('the key line follows the mode', () => {
  const keysOf = (frame: string) =>
    frame
      .split('\n')
      .at(-1)!
      .split(' · ')
      .map((part) => part.split(' ')[0]!);

  test('while a pattern is typed it names Enter and Esc, and q is a letter of the pattern, not quit', async () => {
    const { r, events } = browser();
    await frameHas(r.lastFrame, '6 shown of 6');
    r.stdin.write('/');
    const typing = await frameMatches(r.lastFrame, (f) => expect(keysOf(f)).toEqual(['Enter', 'Esc']));
    expect(typing).not.toContain('q quit');
    r.stdin.write('q');
    await frameHas(r.lastFrame, '/q', '0 shown of 6');
    expect(events).toEqual([]);
    // Enter keeps the pattern and gives the list its keys back; Esc, typing again, clears it.
    r.stdin.write('\r');
    await frameMatches(r.lastFrame, (f) => expect(keysOf(f)).toEqual(Object.keys(KEY_LINE_CHECKS)));
    expect(r.lastFrame()).toContain('0 shown of 6');
    r.stdin.write('/');
    await frameMatches(r.lastFrame, (f) => expect(keysOf(f)).toEqual(['Enter', 'Esc']));
    r.stdin.write(ESC);
    await frameHas(r.lastFrame, '6 shown of 6');
    r.unmount();
  });

  test('in the scope picker it names the keys the picker takes, each of which works', async () => {
    const { r } = browser();
    await frameHas(r.lastFrame, '6 shown of 6');
    r.stdin.write('s');
    await frameMatches(r.lastFrame, (f) => expect(keysOf(f)).toEqual(['↑↓', 'Enter', 'e', 'Esc']));
    r.stdin.write(DOWN);
    await frameHas(r.lastFrame, '› global');
    r.stdin.write('\r');
    await frameHas(r.lastFrame, 'agents · global · 2 shown of 6');
    r.stdin.write('s');
    await frameHas(r.lastFrame, '› global');
    r.stdin.write(DOWN);
    await frameHas(r.lastFrame, '› project myapp');
    r.stdin.write('e');
    await frameHas(r.lastFrame, 'effective set of project myapp');
    r.stdin.write('s');
    await frameHas(r.lastFrame, 'Show which scope?');
    r.stdin.write(ESC);
    await frameMatches(r.lastFrame, (f) => expect(keysOf(f)).toEqual(Object.keys(KEY_LINE_CHECKS)));
    r.unmount();
  });

  test('on a narrow terminal the keys in the middle give way: the way out, and to the help, stay on the line', async () => {
    for (const columns of [40, 20]) {
      const r = render(
        <Browser service={new InvariantService(exampleStore())} size={{ columns, rows: 24 }} onQuit={() => {}} onError={() => {}} />,
      );
      const last = (f: string) => f.split('\n').at(-1)!;
      const list = await frameHas(r.lastFrame, '› E ');
      expect(last(list).endsWith('? help · q quit')).toBe(true);
      expect(last(list).length).toBeLessThanOrEqual(columns);
      if (columns === 40) expect(last(list)).toBe('↑↓ move · / filter · ? help · q quit');
      r.stdin.write('s');
      const picker = await frameHas(r.lastFrame, '› all scopes');
      expect(last(picker).endsWith('Esc back')).toBe(true);
      expect(last(picker).length).toBeLessThanOrEqual(columns);
      r.stdin.write(ESC);
      await frameHas(r.lastFrame, '› E ');
      r.stdin.write('/');
      const typing = await frameMatches(r.lastFrame, (f) => expect(last(f)).toMatch(/Esc clear it$/));
      expect(last(typing).length).toBeLessThanOrEqual(columns);
      r.unmount();
    }
  });

  test('on the help screen it says that any key goes back', async () => {
    const { r } = browser();
    await frameHas(r.lastFrame, '6 shown of 6');
    r.stdin.write('?');
    const help = await frameHas(r.lastFrame, 'Press any key to go back.');
    expect(help.split('\n').at(-1)).toBe('any key back');
    r.stdin.write('z');
    await frameMatches(r.lastFrame, (f) => expect(keysOf(f)).toEqual(Object.keys(KEY_LINE_CHECKS)));
    r.unmount();
  });
});

describe('the add and edit forms', () => {
  function form(editing = false) {
    const root = exampleStore();
    const service = new InvariantService(root);
    const done: (AddResult | EditResult)[] = [];
    let cancelled = 0;
    return service.show(P2).then(({ invariant }) => {
      const r = render(
        <AddForm
          service={service}
          scope={{ kind: 'global' }}
          {...(editing ? { editing: invariant } : {})}
          onDone={(x) => done.push(x)}
          onEdited={(x) => done.push(x)}
          onCancel={() => cancelled++}
        />,
      );
      return { root, r, done, cancelled: () => cancelled };
    });
  }

  async function toConfirm(r: ReturnType<typeof render>, editing: boolean) {
    if (!editing) {
      r.stdin.write('A hinted rule');
      await frameHas(r.lastFrame, 'Text: A hinted rule', '✓ new in this scope');
    } else await frameHas(r.lastFrame, 'Text: Log all changes', '↓ it shadows');
    for (const step of [
      'Severity',
      'Tags',
      'Rationale',
      'Guard 1/4',
      'Guard 2/4',
      'Guard 3/4',
      'Guard 4/4',
      ...(editing ? ['State'] : []),
      editing ? 'Save the changes? [Y/n]' : 'Add it? [Y/n]',
    ]) {
      r.stdin.write('\r');
      await frameHas(r.lastFrame, step);
    }
  }

  test.each([false, true])('editing %s: the confirmation shows its keys, and each does what it says', async (editing) => {
    const first = await form(editing);
    await toConfirm(first.r, editing);
    const hint = first.r.lastFrame()!.split('\n').at(-1)!;
    expect(hint).toBe('Enter/y save · n cancel · Esc cancel · Shift-Tab back');
    first.r.stdin.write(SHIFT_TAB);
    await frameHas(first.r.lastFrame, editing ? 'State (↑↓, Enter):' : 'Guard 1/4');
    if (editing) first.r.stdin.write('\r');
    else {
      for (const k of [1, 2, 3, 4]) {
        await frameHas(first.r.lastFrame, `Guard ${k}/4`);
        first.r.stdin.write('\r');
      }
    }
    await frameHas(first.r.lastFrame, '[Y/n]');
    first.r.stdin.write('n');
    await expect.poll(first.cancelled).toBe(1);
    first.r.unmount();

    const second = await form(editing);
    await toConfirm(second.r, editing);
    second.r.stdin.write(ESC);
    await expect.poll(second.cancelled).toBe(1);
    expect(second.done).toEqual([]);
    second.r.unmount();

    for (const key of ['y', '\r']) {
      const f = await form(editing);
      const files = readdirSync(join(f.root, 'global')).length;
      await toConfirm(f.r, editing);
      f.r.stdin.write(key);
      await expect.poll(() => f.done.length, { timeout: 10_000 }).toBe(1);
      expect(readdirSync(join(f.root, 'global')).length).toBe(editing ? files : files + 1);
      f.r.unmount();
    }
  });

  test('the first step shows only Esc cancel; later steps add Shift-Tab back, which goes back', async () => {
    const { r, cancelled } = await form();
    const first = await frameHas(r.lastFrame, 'Text:');
    expect(first.split('\n').at(-1)).toBe('Esc cancel');
    r.stdin.write('Back and forth');
    await frameHas(r.lastFrame, 'Text: Back and forth', '✓');
    r.stdin.write('\r');
    const second = await frameHas(r.lastFrame, 'Severity');
    expect(second.split('\n').at(-1)).toBe('Esc cancel · Shift-Tab back');
    r.stdin.write(SHIFT_TAB);
    await frameHas(r.lastFrame, 'Text: Back and forth');
    r.stdin.write(ESC);
    await expect.poll(cancelled).toBe(1);
    r.unmount();
  });
});
