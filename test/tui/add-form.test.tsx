import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { expect, onTestFinished, test, vi } from 'vitest';
import type { AgentsError } from '../../src/core/errors.ts';
import type { AddResult, EditResult } from '../../src/service/invariant-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { AddFeedback } from '../../src/tui/AddFeedback.tsx';
import { AddForm } from '../../src/tui/AddForm.tsx';
import { stepOfProblem } from '../../src/tui/add-form-steps.ts';
import { ThemeContext, makeTheme } from '../../src/tui/theme.ts';
import { FitWidth } from '../../src/tui/FitWidth.tsx';
import { scopedInvariant } from '../helpers/invariants.ts';
import { G2, P2, PLAN, exampleStore, frameHas, frameMatches, resizeTo } from './helpers.ts';

const DOWN = '\u001b[B';
const ESC = '\u001b';
const SHIFT_TAB = '\u001b[Z';

/** Enter at the severity, tags and rationale steps: each keeps its default. */
async function passDefaults(r: ReturnType<typeof render>): Promise<void> {
  for (const step of ['Severity', 'Tags', 'Rationale']) {
    await frameHas(r.lastFrame, step);
    r.stdin.write('\r');
  }
}

/** Enter on an empty line through the four kinds of the guard step. */
async function passGuard(r: ReturnType<typeof render>): Promise<void> {
  for (let k = 1; k <= 4; k++) {
    await frameHas(r.lastFrame, `Guard ${k}/4`);
    r.stdin.write('\r');
  }
}

/** Enter on empty lines until the guard step asks for kind `n` (of 4). */
async function passGuardTo(r: ReturnType<typeof render>, n: number): Promise<void> {
  for (let k = 1; k < n; k++) {
    await frameHas(r.lastFrame, `Guard ${k}/4`);
    r.stdin.write('\r');
  }
  await frameHas(r.lastFrame, `Guard ${n}/4`);
}

function setup(scope?: Parameters<typeof AddForm>[0]['scope']) {
  const root = exampleStore();
  const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
  const done: AddResult[] = [];
  let cancelled = 0;
  const r = render(<AddForm service={service} {...(scope ? { scope } : {})} onDone={(x) => done.push(x)} onCancel={() => cancelled++} />);
  return { root, r, done, cancelled: () => cancelled };
}

test('scope picker lists what exists, with a new project and the plans', async () => {
  const { r } = setup();
  const frame = await frameHas(r.lastFrame, 'Scope (↑↓, Enter):');
  expect(frame.split('\n').slice(1, 8)).toEqual([
    'Scope (↑↓, Enter):',
    '› global  every project and plan',
    '  project myapp',
    '  project (new)…  type a name',
    '  action local/code-coverage  copied into plans made from it',
    `  plan ${PLAN}  project myapp · Upgrade the API`,
    'Esc cancel',
  ]);
  r.unmount();
});

test('typing shows duplicate (blocking Enter), then shadows, then adds through severity, tags, rationale and confirm', async () => {
  const { root, r, done } = setup();
  await frameHas(r.lastFrame, '› global');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› project myapp');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Add an invariant · project myapp', 'Text:');
  r.stdin.write('log ALL changes');
  await frameHas(r.lastFrame, `✗ duplicate: project myapp already holds this text as ${P2}`);
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Text: log ALL changes');
  expect(r.lastFrame()).not.toContain('Severity');
  // Different text in the project: shadows nothing yet; then one that a global copy also holds.
  r.stdin.write('\u0015');
  await frameHas(r.lastFrame, 'Type the constraint');
  r.stdin.write('Never delete production data');
  await frameHas(r.lastFrame, '↓ it shadows the copy in global (01M8KJT9G0XNWEM589ZS7FV0VT)');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Severity (↑↓, Enter):', '› error');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› warning');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Tags (comma-separated');
  // Typed with a tag twice and uneven spaces: the confirmation shows the list saved.
  r.stdin.write('data,safety,  data');
  await frameHas(r.lastFrame, 'data,safety,  data');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Rationale (why it exists');
  r.stdin.write('Backups are not tested');
  await frameHas(r.lastFrame, 'Enter for none): Backups are not tested');
  r.stdin.write('\r');
  // The guard, kind by kind: an entry and Enter adds it, Enter on an empty line goes on.
  await frameHas(r.lastFrame, 'Guard 1/4 · Files an agent may not create');
  r.stdin.write('backups/**');
  await frameHas(r.lastFrame, '> backups/**');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, '  write  backups/**');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Guard 2/4 · Shell commands');
  r.stdin.write('\\bpg_dump\\b.*--clean');
  await frameHas(r.lastFrame, '> \\bpg_dump');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, '  command  \\bpg_dump\\b.*--clean');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Guard 3/4');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Guard 4/4');
  r.stdin.write('\r');
  const confirm = await frameHas(r.lastFrame, 'Add it? [Y/n]');
  expect(confirm).toContain('guard     write: backups/**; command: \\bpg_dump\\b.*--clean');
  expect(confirm).toContain('text      Never delete production data');
  expect(confirm).toContain('severity  warning');
  expect(confirm).toContain('tags      data, safety\n');
  expect(confirm).toContain('rationale Backups are not tested');
  expect(confirm).toContain('file      projects/myapp/<new id>.yaml');
  r.stdin.write('y');
  await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
  const result = done[0]!;
  expect(result.invariant).toMatchObject({
    text: 'Never delete production data',
    severity: 'warning',
    tags: ['data', 'safety'],
    rationale: 'Backups are not tested',
    guard: { write: ['backups/**'], command: ['\\bpg_dump\\b.*--clean'] },
    scope: { kind: 'project', project: 'myapp' },
  });
  expect(result.shadows.map((i) => i.id)).toEqual(['01M8KJT9G0XNWEM589ZS7FV0VT']);
  expect(readFileSync(join(root, result.invariant.path), 'utf8')).toContain('text: Never delete production data');
  r.unmount();
});

test('a new project: bad names are refused inline; the text is checked against global copies', async () => {
  const { root, r, done } = setup();
  await frameHas(r.lastFrame, '› global');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› project myapp');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› project (new)…');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'New project name:');
  r.stdin.write('Web');
  await frameHas(r.lastFrame, '✗ project');
  r.stdin.write('\r');
  expect(r.lastFrame()).toContain('New project name:');
  r.stdin.write('\u0015');
  await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('Web'));
  // A reserved name is refused as project add refuses it, not taken to the text step, where the check would end the form.
  r.stdin.write('global');
  await frameHas(r.lastFrame, '✗ project "global"');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'New project name: global');
  expect(r.lastFrame()).not.toContain('Text:');
  r.stdin.write('\u0015');
  await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('global'));
  r.stdin.write('web');
  await frameHas(r.lastFrame, 'New project name: web');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Add an invariant · project web');
  r.stdin.write('Log all changes');
  await frameHas(r.lastFrame, `↓ it shadows the copy in global (${G2})`);
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  await frameHas(r.lastFrame, 'Add it? [Y/n]', 'tags      (none)', 'rationale (none)', 'guard     (none)');
  // Shift-Tab goes back to the guard, then Enter through it again.
  r.stdin.write(SHIFT_TAB);
  await frameHas(r.lastFrame, 'Guard 1/4');
  await passGuard(r);
  await frameHas(r.lastFrame, 'Add it? [Y/n]');
  r.stdin.write('\r');
  await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
  expect(readdirSync(join(root, 'projects/web'))).toEqual([`${done[0]!.invariant.id}.yaml`]);
  expect(done[0]!.invariant.rationale).toBeUndefined();
  r.unmount();
});

test('Shift-Tab steps back; Esc cancels at any step without writing', async () => {
  const { root, r, cancelled } = setup({ kind: 'global' });
  await frameHas(r.lastFrame, 'Add an invariant · global', 'Esc cancel');
  expect(r.lastFrame()).not.toContain('Shift-Tab back');
  r.stdin.write('Something new');
  await frameHas(r.lastFrame, '✓ new in this scope, shadows nothing');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Severity', 'Esc cancel · Shift-Tab back');
  r.stdin.write(SHIFT_TAB);
  await frameHas(r.lastFrame, 'Text: Something new');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Severity');
  r.stdin.write(ESC);
  await expect.poll(cancelled, { timeout: 5000 }).toBe(1);
  expect(readdirSync(join(root, 'global')).length).toBe(2);
  r.unmount();
});

test('a guard entry add would refuse is refused on Enter, where it was typed; fixed, it is taken and saved', async () => {
  // The pattern checks are in the module cache, as they are once the step has loaded them.
  await import('../../src/core/guard-patterns.ts');
  const { r, done } = setup({ kind: 'global' });
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Never drop release tags');
  await frameHas(r.lastFrame, '✓ new in this scope');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuardTo(r, 2);
  r.stdin.write('git tag -d (');
  await frameHas(r.lastFrame, '> git tag -d (');
  r.stdin.write('\r');
  const refused = await frameHas(r.lastFrame, '✗ command pattern "git tag -d (" is not an RE2 regular expression');
  expect(refused).toContain('Guard 2/4');
  expect(refused).not.toContain('  command  git tag -d (');
  r.stdin.write('\u007f\u007f');
  await frameHas(r.lastFrame, '> git tag -d ');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, '  command  git tag -d');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Guard 3/4');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Guard 4/4');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Add it? [Y/n]');
  r.stdin.write('y');
  await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
  expect(done[0]!.invariant.guard).toEqual({ command: ['git tag -d'] });
  r.unmount();
});

test('a refusal of the save goes back to the step it is about, whatever words the message holds besides', () => {
  expect(stepOfProblem('tag "a,b" is invalid: tags are 1 to 64 characters without commas')).toBe('tags');
  expect(stepOfProblem('the rationale is 5000 characters long; the limit is 4000')).toBe('rationale');
  expect(stepOfProblem('command pattern "git tag -d (" is not an RE2 regular expression: missing )')).toBe('guard');
  expect(stepOfProblem('write glob "[" is not a glob')).toBe('guard');
  expect(stepOfProblem('01M8KJW430VF8WCABSB8RTQ8RY has no tag "beta"')).toBe('tags');
  // About no answer: the confirmation, where Enter tries again.
  for (const code of ['locked', 'store-changed', 'write-failed']) expect(stepOfProblem('tag "x" is locked', code)).toBe('confirm');
  expect(stepOfProblem('the text is empty', 'usage')).toBe('text');
  // A project named "tagging", a store under a folder named "guards": the text step.
  expect(stepOfProblem('cannot write projects/tagging/.lock: permission denied')).toBe('text');
  expect(stepOfProblem('cannot add an invariant to /srv/guards/.agents/global/: text holds U+202E')).toBe('text');
});

/** The edit form on invariant `id` of the example store, after `prepare` changed the store. */
async function editForm(id: string, prepare: (service: InvariantService) => Promise<unknown> = async () => {}) {
  const root = exampleStore();
  const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
  await prepare(service);
  const { invariant } = await service.show(id);
  const edited: EditResult[] = [];
  const r = render(
    <AddForm
      service={service}
      editing={invariant}
      onDone={() => {}}
      onEdited={(x) => edited.push(x)}
      onCancel={() => {}}
      onError={(error) => {
        throw error;
      }}
    />,
  );
  return { service, r, edited };
}

test('the edit form saves a guard list emptied in it: the kind goes, the other lists stay', async () => {
  const { service, r, edited } = await editForm(G2, (s) => s.edit({ id: G2, guard: { write: ['secrets/**'], command: ['rm -rf'] } }));
  await frameHas(r.lastFrame, 'Text: Log all changes', '↑ it is shadowed by');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuardTo(r, 2);
  await frameHas(r.lastFrame, '  command  rm -rf');
  // The entry typed again and Enter takes it out.
  r.stdin.write('rm -rf');
  await frameHas(r.lastFrame, '> rm -rf');
  r.stdin.write('\r');
  await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('  command  rm -rf'));
  for (const step of ['Guard 3/4', 'Guard 4/4', 'State', 'Save the changes? [Y/n]']) {
    r.stdin.write('\r');
    await frameHas(r.lastFrame, step);
  }
  r.stdin.write('y');
  await expect.poll(() => edited.length, { timeout: 10_000 }).toBe(1);
  expect(edited[0]!.changed).toEqual(['guard']);
  expect((await service.show(G2)).invariant.guard).toEqual({ write: ['secrets/**'] });
  r.unmount();
});

test('the edit form changes only what was changed in it: a field another process changed meanwhile keeps that change', async () => {
  const { service, r, edited } = await editForm(G2);
  await frameHas(r.lastFrame, 'Text: Log all changes', '↑ it is shadowed by');
  r.stdin.write(' twice');
  await frameHas(r.lastFrame, 'Text: Log all changes twice', '✓ new in this scope');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  await frameHas(r.lastFrame, 'State');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Save the changes? [Y/n]');
  // Another process, while the form is open.
  await service.edit({ id: G2, severity: 'warning', tags: ['external'], rationale: 'Audits need it' });
  r.stdin.write('y');
  await expect.poll(() => edited.length, { timeout: 10_000 }).toBe(1);
  expect(edited[0]!.changed).toEqual(['text']);
  const { invariant } = await service.show(G2);
  expect(invariant).toMatchObject({ text: 'Log all changes twice', severity: 'warning', tags: ['external'], rationale: 'Audits need it' });
  r.unmount();
});

test('a tag taken out in the form that another process took out meanwhile: the refusal goes to the tags, and the next save is made', async () => {
  const { service, r, edited } = await editForm(G2, (s) => s.edit({ id: G2, tags: ['alpha', 'beta'] }));
  await frameHas(r.lastFrame, 'Text: Log all changes', '↑ it is shadowed by');
  r.stdin.write(' twice');
  await frameHas(r.lastFrame, 'Text: Log all changes twice');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Severity');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Tags', 'alpha, beta');
  r.stdin.write('\u0015');
  await frameMatches(r.lastFrame, (f) => expect(f).not.toContain('alpha, beta'));
  r.stdin.write('alpha');
  await frameHas(r.lastFrame, ': alpha');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Rationale');
  r.stdin.write('\r');
  await passGuard(r);
  await frameHas(r.lastFrame, 'State');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Save the changes? [Y/n]');
  // Another process, while the form is open.
  await service.edit({ id: G2, removeTags: ['beta'] });
  r.stdin.write('y');
  await frameHas(r.lastFrame, 'Tags (', 'has no tag "beta"');
  expect(edited).toEqual([]);
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Rationale');
  r.stdin.write('\r');
  await passGuard(r);
  await frameHas(r.lastFrame, 'State');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Save the changes? [Y/n]');
  r.stdin.write('y');
  await expect.poll(() => edited.length, { timeout: 10_000 }).toBe(1);
  expect(edited[0]!.changed).toEqual(['text']);
  expect((await service.show(G2)).invariant).toMatchObject({ text: 'Log all changes twice', tags: ['alpha'] });
  r.unmount();
});

test('a store moved away while the form is open: saving is refused, and nothing is made where it was', async () => {
  const { root, r, done } = setup({ kind: 'global' });
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Keep the store where it is');
  await frameHas(r.lastFrame, '✓ new in this scope');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  await frameHas(r.lastFrame, 'Add it? [Y/n]');
  renameSync(root, `${root}.moved`);
  r.stdin.write('y');
  await frameHas(r.lastFrame, `no store at ${root}`);
  expect(done).toEqual([]);
  expect(existsSync(root)).toBe(false);
  r.unmount();
});

test('a text another process added to the scope while the form was open: the refused save says it is a duplicate once, and Enter on the text is refused as typing it would be', async () => {
  const { root, r, done } = setup({ kind: 'global' });
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Said twice by two hands');
  await frameHas(r.lastFrame, '✓ new in this scope');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  await frameHas(r.lastFrame, 'Add it? [Y/n]');
  const other = await new InvariantService(root).add({ scope: { kind: 'global' }, text: 'Said twice by two hands' });
  r.stdin.write('y');
  const refused = await frameHas(r.lastFrame, `✗ duplicate: global already holds this text as ${other.invariant.id}`);
  expect(refused).not.toContain('✓ new in this scope');
  // Said once: the live feedback of the store read again, not the refusal's own line beside it.
  expect(refused.match(/✗ duplicate/g)).toHaveLength(1);
  r.stdin.write('\r');
  await new Promise((settled) => setTimeout(settled, 100));
  expect(r.lastFrame()).toContain('Text: Said twice by two hands');
  expect(r.lastFrame()).not.toContain('Severity');
  expect(done).toEqual([]);
  r.unmount();
});

test('the longest text and rationale keep every step within the terminal: the field shows its end, the confirmation cuts them with "…"', async () => {
  const root = exampleStore();
  const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
  const done: AddResult[] = [];
  const r = render(
    <AddForm service={service} scope={{ kind: 'global' }} width={80} rows={24} onDone={(x) => done.push(x)} onCancel={() => {}} />,
  );
  const within = (frame: string) => expect(frame.split('\n').length).toBeLessThan(24);
  const text = 'Keep every record of every change. '.repeat(60).slice(0, 1990).trim();
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write(text);
  within(await frameHas(r.lastFrame, '✓ new in this scope', 'Text: …', 'change.'));
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Severity');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Tags');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Rationale');
  r.stdin.write('Audits need it. '.repeat(250).trim());
  within(await frameHas(r.lastFrame, '…', 'need it.'));
  r.stdin.write('\r');
  await passGuard(r);
  const confirm = await frameHas(r.lastFrame, 'Add it? [Y/n]');
  within(confirm);
  expect(confirm.split('\n')[0]).toBe('Add an invariant · global');
  expect(confirm).toMatch(/^text {6}Keep every record/m);
  expect(confirm).toMatch(/…$/m);
  r.stdin.write('y');
  await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
  // Cut on screen only: the whole text is written.
  expect(done[0]!.invariant.text).toBe(text);
  r.unmount();
});

test('a text many projects hold: the shadow lines are counted past what fits, each step within the terminal', async () => {
  const root = exampleStore();
  const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
  for (let i = 0; i < 30; i++)
    await service.add({
      scope: { kind: 'project', project: `svc${String(i).padStart(2, '0')}` },
      text: 'Same rule everywhere',
      newProject: true,
    });
  const r = render(<AddForm service={service} scope={{ kind: 'global' }} width={80} rows={24} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Same rule everywhere');
  const typed = await frameHas(r.lastFrame, '↑ it is shadowed by the copy in project svc00', 'more');
  expect(typed.split('\n').length).toBeLessThan(24);
  expect(typed.split('\n')[0]).toBe('Add an invariant · global');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  const confirm = await frameHas(r.lastFrame, 'Add it? [Y/n]');
  expect(confirm.split('\n').length).toBeLessThan(24);
  expect(confirm).toMatch(/^… and \d+ more$/m);
  r.unmount();
});

test('a guard of many entries keeps the guard step within the terminal: the last entries shown, the others counted, all saved', async () => {
  const globs = Array.from({ length: 40 }, (_, i) => `src/module${i + 1}/**/*.generated.ts`);
  const { service, r, edited } = await editForm(G2, (s) => s.edit({ id: G2, guard: { write: globs } }));
  await frameHas(r.lastFrame, 'Text: Log all changes', '↑ it is shadowed by');
  r.stdin.write('\r');
  await passDefaults(r);
  const within = (frame: string) => {
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(24);
    expect(lines[0]).toMatch(/^Edit 01M8KJW430VF8WCABSB8RTQ8RY/);
    expect(lines.some((l) => l.startsWith('Guard 1/4'))).toBe(true);
  };
  within(await frameHas(r.lastFrame, 'Guard 1/4', 'more write entries above', '  write  src/module40/**/*.generated.ts'));
  r.stdin.write('src/new/**');
  await frameHas(r.lastFrame, '> src/new/**');
  r.stdin.write('\r');
  within(await frameHas(r.lastFrame, '  write  src/new/**'));
  for (const step of ['Guard 2/4', 'Guard 3/4', 'Guard 4/4', 'State', 'Save the changes? [Y/n]']) {
    r.stdin.write('\r');
    await frameHas(r.lastFrame, step);
  }
  r.stdin.write('y');
  await expect.poll(() => edited.length, { timeout: 10_000 }).toBe(1);
  expect((await service.show(G2)).invariant.guard).toEqual({ write: [...globs, 'src/new/**'] });
  r.unmount();
});

test('the form on a terminal smaller than 20×5 shows its size and the size needed, as the browser does; its answers come back with the size', async () => {
  const service = new InvariantService(exampleStore());
  const r = render(
    <FitWidth>{(width, rows) => <AddForm service={service} width={width} rows={rows} onDone={() => {}} onCancel={() => {}} />}</FitWidth>,
  );
  const resize = (columns: number, rows: number) => resizeTo(r.stdout, columns, rows);
  await frameHas(r.lastFrame, '› global');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› project myapp');
  resize(15, 4);
  const small = await frameHas(r.lastFrame, '15×4');
  expect(small).not.toContain('Add an invariant');
  expect(small.split('\n').length).toBeLessThanOrEqual(3);
  for (const l of small.split('\n')) expect(l.length).toBeLessThanOrEqual(15);
  resize(80, 24);
  await frameHas(r.lastFrame, 'Add an invariant', '› project myapp');
  r.unmount();
});

test('a long new project name keeps the step within the terminal: the field shows its end on one row, the problem cut to the rows left', async () => {
  const service = new InvariantService(exampleStore());
  const r = render(<AddForm service={service} width={60} rows={8} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, '› global');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› project myapp');
  r.stdin.write(DOWN);
  await frameHas(r.lastFrame, '› project (new)…');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'New project name:');
  r.stdin.write('a'.repeat(400));
  const frame = await frameHas(r.lastFrame, '✗');
  const lines = frame.split('\n');
  expect(lines[0]).toBe('Add an invariant');
  expect(lines[1]).toMatch(/^New project name: …a+/);
  expect(lines.length).toBeLessThanOrEqual(7);
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
  r.unmount();
});

test('a project of the longest name: the title, the scope line and the key line keep to a row each, every step within the terminal', async () => {
  const service = new InvariantService(exampleStore(), { author: async () => 'Tester <t@example.com>' });
  const project = 'p'.repeat(64);
  for (const width of [80, 40]) {
    const r = render(
      <AddForm service={service} scope={{ kind: 'project', project }} width={width} rows={24} onDone={() => {}} onCancel={() => {}} />,
    );
    const within = (frame: string) => {
      const lines = frame.split('\n');
      expect(lines[0]).toMatch(/^Add an invariant · project p+…$/);
      expect(lines.length).toBeLessThanOrEqual(23);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
    };
    await frameHas(r.lastFrame, 'Text:');
    r.stdin.write('Keep the audit log');
    within(await frameHas(r.lastFrame, '✓ new in this scope'));
    r.stdin.write('\r');
    await passDefaults(r);
    await passGuard(r);
    const confirm = await frameHas(r.lastFrame, 'Add it? [Y/n]');
    within(confirm);
    expect(confirm).toMatch(/^scope {5}project p+…$/m);
    // The key line is the last row, whole or cut, never wrapped onto a second.
    expect(confirm.split('\n').at(-1)).toMatch(/^Enter\/y save/);
    r.unmount();
  }
});

test('the confirmation on a short terminal leaves out the empty answers, then the scope its title names and the file: the title stays on screen', async () => {
  const service = new InvariantService(exampleStore(), { author: async () => 'Tester <t@example.com>' });
  for (const [rows, kept, left] of [
    [12, ['text ', 'scope ', 'severity ', 'file '], ['tags ', 'rationale ', 'guard ']],
    [9, ['text ', 'severity ', 'file '], ['scope ', 'tags ']],
    [8, ['text ', 'severity '], ['scope ', 'file ', 'tags ']],
  ] as const) {
    const done: AddResult[] = [];
    const r = render(
      <AddForm service={service} scope={{ kind: 'global' }} width={80} rows={rows} onDone={(x) => done.push(x)} onCancel={() => {}} />,
    );
    await frameHas(r.lastFrame, 'Text:');
    r.stdin.write(`Keep the audit log ${rows}`);
    await frameHas(r.lastFrame, '✓ new in this scope');
    r.stdin.write('\r');
    await passDefaults(r);
    await passGuard(r);
    const frame = await frameHas(r.lastFrame, 'Add it? [Y/n]');
    const lines = frame.split('\n');
    expect(lines[0]).toBe('Add an invariant · global');
    expect(lines.length).toBeLessThanOrEqual(rows - 1);
    for (const label of kept) expect(lines.some((l) => l.startsWith(label))).toBe(true);
    for (const label of left) expect(lines.some((l) => l.startsWith(label))).toBe(false);
    r.stdin.write('y');
    await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
    r.unmount();
  }
});

test('on a terminal of 5 or 6 rows every step stays within it, the title on its first row: the lists scroll, the guard and the confirmation give up their second rows', async () => {
  for (const [columns, rows] of [
    [80, 5],
    [40, 6],
  ] as const) {
    const root = exampleStore();
    const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
    const done: AddResult[] = [];
    const r = render(<AddForm service={service} width={columns} rows={rows} onDone={(x) => done.push(x)} onCancel={() => {}} />);
    const within = async (...texts: string[]) => {
      const lines = (await frameHas(r.lastFrame, ...texts)).split('\n');
      expect(lines.length).toBeLessThan(rows);
      expect(lines[0]).toMatch(/^Add an invariant/);
    };
    await within('› global');
    // The cut lists say where the cursor is, on the question's row when there is no row under them.
    r.stdin.write(DOWN);
    await within('2/5');
    r.stdin.write('\u001b[A');
    await within('1/5');
    r.stdin.write('\r');
    await within('Text:');
    r.stdin.write('Fits a short terminal');
    // Enter counts once the text is checked: one typed ahead of the check is taken for the text's own.
    await within('Text: Fits a short terminal', '✓ new in this scope');
    r.stdin.write('\r');
    await within('Severity');
    expect(r.lastFrame()).toMatch(/[123]\/3/);
    r.stdin.write('\r');
    await within('Tags');
    r.stdin.write('\r');
    await within('Rationale');
    r.stdin.write('\r');
    for (let k = 1; k <= 4; k++) {
      await within(`Guard ${k}/4`);
      r.stdin.write('\r');
    }
    await within('Add it? [Y/n]');
    r.stdin.write('y');
    await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
    expect(done[0]!.invariant.text).toBe('Fits a short terminal');
    r.unmount();
  }
});

test('a refusal of several rows (a scope locked by another writer) stays at the confirmation within a short terminal, the title on its first row, and Enter tries the save again', async () => {
  vi.stubEnv('AGENTS_LOCK_TIMEOUT_MS', '20');
  onTestFinished(() => void vi.unstubAllEnvs());
  for (const [columns, rows] of [
    [40, 6],
    [20, 5],
    [80, 8],
  ] as const) {
    const root = exampleStore();
    // A live writer's lock (this process): the save waits for it, then is refused naming it.
    writeFileSync(join(root, 'global', '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
    const done: AddResult[] = [];
    const r = render(
      <AddForm service={service} scope={{ kind: 'global' }} width={columns} rows={rows} onDone={(x) => done.push(x)} onCancel={() => {}} />,
    );
    const within = async (...texts: string[]) => {
      const frame = await frameHas(r.lastFrame, ...texts);
      expect([columns, rows, frame.split('\n').length < rows, frame.split('\n')[0]]).toEqual([
        columns,
        rows,
        true,
        expect.stringMatching(/^Add an inv/),
      ]);
      return frame;
    };
    await within('Text:');
    r.stdin.write('Ok');
    await within('Text: Ok', '✓');
    r.stdin.write('\r');
    await passDefaults(r);
    await passGuard(r);
    await within('[Y/n]');
    r.stdin.write('y');
    // About no answer of the form: said at the confirmation, which it stays at.
    await within('✗ glob', '[Y/n]');
    expect(done).toEqual([]);
    rmSync(join(root, 'global', '.lock'));
    r.stdin.write('\r');
    await expect.poll(() => done.length, { timeout: 10_000 }).toBe(1);
    expect(done[0]!.invariant.text).toBe('Ok');
    r.unmount();
  }
});

test("a save refused for another writer's lock says the refusal's hint too (the lock to delete when no writer runs), as the command line does", async () => {
  vi.stubEnv('AGENTS_LOCK_TIMEOUT_MS', '20');
  onTestFinished(() => void vi.unstubAllEnvs());
  const root = exampleStore();
  writeFileSync(join(root, 'global', '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
  const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
  const refusal = (await service.add({ scope: { kind: 'global' }, text: 'Probe' }).catch((error: unknown) => error)) as AgentsError;
  expect(refusal).toMatchObject({ code: 'locked', hintAnySurface: true });
  const r = render(<AddForm service={service} scope={{ kind: 'global' }} width={80} rows={24} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Ok');
  await frameHas(r.lastFrame, 'Text: Ok', '✓');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  await frameHas(r.lastFrame, '[Y/n]');
  r.stdin.write('y');
  const frame = await frameHas(r.lastFrame, '✗ ');
  const said = frame.slice(frame.indexOf('✗ ')).replace(/\s+/g, ' ');
  expect(said).toContain(refusal.message);
  expect(said).toContain(refusal.hint!.replace(/\s+/g, ' '));
  r.unmount();
});

test('the live feedback says what the text meets in the words invariant add says after a write', () => {
  const low = scopedInvariant(G2, { kind: 'global' }, 'Log all changes');
  const high = scopedInvariant(PLAN, { kind: 'plan', plan: PLAN }, 'Log all changes', { overrides: P2 });
  const near = scopedInvariant(P2, { kind: 'project', project: 'w' }, 'Log it');
  const r = render(
    <AddFeedback
      check={{ duplicate: { ...near, active: false }, shadows: [low], shadowedBy: [high] }}
      text="Log all changes"
      near={[{ invariant: near, kind: 'one-edit' }]}
      width={200}
    />,
  );
  expect((r.lastFrame() ?? '').split('\n').map((l) => l.trimEnd())).toEqual([
    `✗ duplicate: project w already holds this text as ${P2} (inactive)`,
    `↓ it shadows the copy in global (${G2})`,
    `↑ it is shadowed by the copy in plan ${PLAN} (${PLAN})`,
    `≈ nearly repeats project w ${P2} "Log it" (one character apart); both apply`,
  ]);
  r.unmount();
});

test('another file of the store invalid and unread: the live feedback says the text shadows nothing of the files read and names the file', async () => {
  const root = exampleStore();
  const broken = 'projects/myapp/01M8KJW430VF8WCABSB8RTQ9ZZ.yaml';
  writeFileSync(join(root, broken), 'id: 01M8KJW430VF8WCABSB8RTQ9ZZ\ntext: [broken\n');
  const service = new InvariantService(root);
  const context = await service.addContext({ kind: 'global' });
  expect(context.incomplete?.map((d) => d.file)).toEqual([broken]);
  const r = render(<AddForm service={service} scope={{ kind: 'global' }} width={200} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Only in the broken file');
  const frame = await frameHas(r.lastFrame, '✓ new in this scope, shadows nothing of the files read', `${broken} is invalid`);
  expect(frame).not.toMatch(/shadows nothing\s*$/m);
  r.unmount();
});

test('an invalid file unread under --store: the warning names the command with that store, so that it validates the same store', () => {
  const problem = { file: 'global/bad.yaml', line: 1, col: 1, code: 'yaml-syntax' as const, message: 'bad', severity: 'error' as const };
  const feedback = (agents?: string) =>
    render(
      <ThemeContext.Provider value={makeTheme(false, agents)}>
        <AddFeedback check={{ shadows: [], shadowedBy: [] }} text="Log all changes" incomplete={[problem]} width={400} />
      </ThemeContext.Provider>,
    );
  const given = feedback("agents --store '../my store'");
  expect(given.lastFrame()).toContain("`agents --store '../my store' validate`");
  given.unmount();
  const bare = feedback();
  expect(bare.lastFrame()).toContain('`agents validate`');
  bare.unmount();
});

test('a policy source not pinned: the live feedback says the text shadows nothing of the files read, and the source was not read with the command that reads it', async () => {
  const root = exampleStore();
  writeFileSync(join(root, 'config.yaml'), 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n');
  const service = new InvariantService(root);
  expect((await service.addContext({ kind: 'global' })).inheritedMissing).toContain('agents extends update');
  const r = render(<AddForm service={service} scope={{ kind: 'global' }} width={200} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Only in the policy');
  await frameHas(r.lastFrame, '✓ new in this scope, shadows nothing of the files read', 'acme-policy has no pin');
  r.unmount();
});

test('a policy source not pinned: the confirmation too says the text shadows nothing of the files read, and the source was not read', async () => {
  const root = exampleStore();
  writeFileSync(join(root, 'config.yaml'), 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n');
  const service = new InvariantService(root);
  const r = render(<AddForm service={service} scope={{ kind: 'global' }} width={200} rows={40} onDone={() => {}} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Text:');
  r.stdin.write('Only in the policy');
  await frameHas(r.lastFrame, '✓ new in this scope, shadows nothing of the files read');
  r.stdin.write('\r');
  await passDefaults(r);
  await passGuard(r);
  const confirm = await frameHas(r.lastFrame, 'Add it? [Y/n]');
  expect(confirm).toContain('✓ new in this scope, shadows nothing of the files read');
  expect(confirm).toContain('acme-policy has no pin');
  r.unmount();
});
