import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/store/atomic-write.ts';
import { withFolderLock } from '../../src/store/lock.ts';
import { writerMark } from '../../src/store/lock-owner.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { validateTree } from '../../src/validate/validate-tree.ts';
import { applyFixes } from '../../src/validate/fix.ts';
import { runValidate } from '../../src/validate/run.ts';
import { BIN, spawnAsync } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { runReadOnly } from '../helpers/read-only.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const D = '01JDQ6X5Z8W4N3B2C1D0E9F8GA';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json';

async function validate(store: string, ...args: string[]) {
  const r = await runMain(['--store', store, 'validate', '--format', 'json', ...args], { cwd: dirname(store) });
  return { code: r.code, out: JSON.parse(r.stdout) };
}

describe('validate --fix', () => {
  it('adds a missing modeline, keeping a BOM first and CRLF line endings', async () => {
    const plain = invariantYaml(A, 'Never delete production data');
    const windows = `\uFEFF${invariantYaml(B, 'Keep a changelog').replace(/\n/g, '\r\n')}`;
    const store = testStore({ [`global/${A}.yaml`]: plain, [`projects/web/${B}.yaml`]: windows, 'config.yaml': 'version: 1\n' });
    const r = await validate(store, '--fix');
    expect(r.code).toBe(0);
    expect(r.out.fixes.map((f: { file: string; action: string; done: boolean }) => [f.action, f.file, f.done])).toEqual([
      ['add-modeline', 'config.yaml', true],
      ['add-modeline', `global/${A}.yaml`, true],
      ['add-modeline', `projects/web/${B}.yaml`, true],
    ]);
    expect(r.out.diagnostics).toEqual([]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(`${ML}\n${plain}`);
    expect(readFileSync(join(store, `projects/web/${B}.yaml`), 'utf8')).toBe(
      `\uFEFF# yaml-language-server: $schema=../../schemas/invariant.schema.json\r\n${windows.slice(1)}`,
    );
    expect(readFileSync(join(store, 'config.yaml'), 'utf8')).toBe(
      '# yaml-language-server: $schema=schemas/config.schema.json\nversion: 1\n',
    );
  });

  it('renames a file to its id when the id is valid and unused, and only then', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: `${ML}\n${invariantYaml(B, 'Never delete production data')}`, // id B is free
      'global/my-rule.yaml': `${ML}\n${invariantYaml(C, 'Keep a changelog')}`, // a hand-named file
      [`projects/web/${A}.yaml`]: `${ML}\n${invariantYaml(C, 'Use TLS')}`, // C is claimed by the fix above
      [`projects/web/${D}.yaml`]: `${ML}\n${invariantYaml('01JDQ6X5Z8W4N3B2C1D0E9F8GI', 'Bad id')}`,
    });
    const before = readFileSync(join(store, `global/${A}.yaml`), 'utf8');
    const r = await validate(store, '--fix');
    expect(
      r.out.fixes.map((f: { action: string; file: string; to: string | null; done: boolean }) => [f.action, f.file, f.to, f.done]),
    ).toEqual([
      ['rename', `global/${A}.yaml`, `global/${B}.yaml`, true],
      ['rename', 'global/my-rule.yaml', `global/${C}.yaml`, true],
      // Not made, and said so: the name it would take is taken.
      ['rename', `projects/web/${A}.yaml`, `projects/web/${C}.yaml`, false],
    ]);
    expect(readdirSync(join(store, 'global')).sort()).toEqual([`${B}.yaml`, `${C}.yaml`]);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(before);
    // What is not safe to fix is left and still reported.
    expect(r.code).toBe(1);
    expect(r.out.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file]).sort()).toEqual([
      ['id-invalid', `projects/web/${D}.yaml`],
      ['id-mismatch', `projects/web/${A}.yaml`],
    ]);
  });

  it('a renamed file keeps its byte order mark in front, with or without the modeline the rename adds', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: `\uFEFF${ML}\n${invariantYaml(B, 'Never delete production data')}`,
      [`global/${C}.yaml`]: `\uFEFF${invariantYaml(D, 'Keep a changelog')}`,
    });
    expect((await validate(store, '--fix')).code).toBe(0);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(`\uFEFF${ML}\n${invariantYaml(B, 'Never delete production data')}`);
    expect(readFileSync(join(store, `global/${D}.yaml`), 'utf8')).toBe(`\uFEFF${ML}\n${invariantYaml(D, 'Keep a changelog')}`);
  });

  it('gives a file it renames or gives an id its missing modeline in the same run: a second --fix has nothing to do', async () => {
    const store = testStore({
      'global/my-rule.yaml': '# A hand-written rule\ntext: Do not push to main directly\n',
      [`global/${A}.yaml`]: invariantYaml(B, 'Name differs from id'),
    });
    const r = await validate(store, '--fix');
    expect(r.code).toBe(0);
    expect(r.out.diagnostics).toEqual([]);
    expect(r.out.fixes.filter((f: { action: string }) => f.action === 'add-modeline')).toHaveLength(2);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(`${ML}\n${invariantYaml(B, 'Name differs from id')}`);
    const again = await validate(store, '--fix', '--verbose');
    expect(again.out.fixes).toEqual([]);
    expect(again.out.diagnostics).toEqual([]);
  });

  it('gives no modeline to a file it would take past 1 MiB: the file stays readable, as it was, and the fix is not done', async () => {
    // Just under the limit, in comment lines: the modeline alone would take it over.
    const head = invariantYaml(A, 'Big comments');
    const line = `# ${'x'.repeat(77)}\n`;
    const big = head + line.repeat(Math.floor((1024 * 1024 - 20 - head.length) / line.length));
    const renamed = invariantYaml(B, 'Renamed and big') + line.repeat(Math.floor((1024 * 1024 - 20 - head.length) / line.length));
    const store = testStore({ [`global/${A}.yaml`]: big, [`global/${C}.yaml`]: renamed });
    const r = await validate(store, '--fix');
    expect(r.code).toBe(0);
    expect(r.out.fixes.map((f: { file: string; action: string; done: boolean }) => [f.action, f.file, f.done])).toEqual([
      ['rename', `global/${C}.yaml`, true],
      ['add-modeline', `global/${A}.yaml`, false],
    ]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(big);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(renamed);
    expect(r.out.diagnostics.map((d: { code: string }) => d.code)).toEqual(['modeline-missing', 'modeline-missing']);
  });

  it('reports and replaces a modeline that names another schema; finds the right one after a blank first line', async () => {
    const wrongKind = `# yaml-language-server: $schema=../schemas/plan.schema.json\n${invariantYaml(A, 'Wrong schema modeline')}`;
    const remote = `# yaml-language-server: $schema=https://evil.example/x.json\r\n${invariantYaml(B, 'Remote schema modeline').replace(/\n/g, '\r\n')}`;
    const blankFirst = `\n${ML}\n${invariantYaml(C, 'Modeline on the second line')}`;
    const store = testStore({ [`global/${A}.yaml`]: wrongKind, [`global/${B}.yaml`]: remote, [`global/${C}.yaml`]: blankFirst });
    const before = await validate(store, '--verbose');
    expect(before.out.diagnostics.map((d: { code: string; file: string; line: number }) => [d.code, d.file, d.line])).toEqual([
      ['modeline-missing', `global/${A}.yaml`, 1],
      ['modeline-missing', `global/${B}.yaml`, 1],
    ]);
    const r = await validate(store, '--fix');
    expect(r.out.fixes.map((f: { file: string; done: boolean }) => [f.file, f.done])).toEqual([
      [`global/${A}.yaml`, true],
      [`global/${B}.yaml`, true],
    ]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(`${ML}\n${invariantYaml(A, 'Wrong schema modeline')}`);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(
      `${ML}\r\n${invariantYaml(B, 'Remote schema modeline').replace(/\n/g, '\r\n')}`,
    );
    expect(readFileSync(join(store, `global/${C}.yaml`), 'utf8')).toBe(blankFirst);
    expect((await validate(store, '--verbose')).out.diagnostics).toEqual([]);
  });

  it('replaces only the modeline that names another schema: a comment after it on its line stays', async () => {
    const body = invariantYaml(A, 'Commented modeline');
    const store = testStore({ [`global/${A}.yaml`]: `# yaml-language-server: $schema=../schemas/plan.schema.json  # kept\r\n${body}` });
    const r = await validate(store, '--fix');
    expect(r.out.fixes.map((f: { action: string; done: boolean }) => [f.action, f.done])).toEqual([['add-modeline', true]]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(`${ML}  # kept\r\n${body}`);
    expect((await validate(store, '--verbose')).out.diagnostics).toEqual([]);
  });

  it('removes temporary files of writers that are gone, and keeps those of a running one', async () => {
    const dead = `global/.${A}.yaml.999999999.0a1b2c3d.tmp`;
    const alive = `global/.${B}.yaml.${process.ppid}.0a1b2c3d.tmp`; // the test runner: running
    const store = testStore({ [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete')}`, [dead]: 'id: x\n', [alive]: 'id: y\n' });
    const r = await validate(store, '--fix');
    expect(r.out.fixes.map((f: { file: string; done: boolean }) => [f.file, f.done])).toEqual([
      [dead, true],
      [alive, false],
    ]);
    expect(existsSync(join(store, dead))).toBe(false);
    expect(existsSync(join(store, alive))).toBe(true);
    expect(r.out.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([['temporary-file', alive]]);
    expect(r.code).toBe(0);
  });

  it('removes a temporary whose number a process started after it was written has now (a restarted container): not its writer', async () => {
    const later = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const left = `global/.${A}.yaml.${later.pid}.0a1b2c3d.tmp`;
      const store = testStore({ [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete')}`, [left]: 'id: x\n' });
      const dayBefore = new Date(Date.now() - 86_400_000);
      utimesSync(join(store, left), dayBefore, dayBefore);
      const r = await validate(store, '--fix');
      expect(r.out.fixes.map((f: { file: string; done: boolean }) => [f.file, f.done])).toEqual([[left, true]]);
      expect(existsSync(join(store, left))).toBe(false);
    } finally {
      later.kill();
    }
  });

  // A temporary's name says who wrote it, as a lock does (host and pid namespace, boot, start): judged by that, never
  // by the file's time, which a wall clock set forward or back since it was written misleads.
  it('judges a temporary by the writer its name gives: a live one kept whatever its time, a gone one removed, another container kept', async () => {
    const writer = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const [host, boot] = writerMark()!.split('-') as [string, string];
      const stat = readFileSync(`/proc/${writer.pid}/stat`, 'latin1');
      const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
      const other = (hex: string) => (hex === '0a0a0a0a' ? '0b0b0b0b' : '0a0a0a0a');
      const temp = (name: string, mark: string) => `global/.${name}.yaml.${mark}.${writer.pid}.0a1b2c3d.tmp`;
      const pastLive = temp(A, `${host}-${boot}-${start}`);
      const futureLive = temp(B, `${host}-${boot}-${start}`);
      const earlierWriter = temp(C, `${host}-${boot}-${start - 1}`);
      const formerBoot = temp(D, `${host}-${other(boot)}-${start}`);
      const otherContainer = temp('E', `${other(host)}-${boot}-${start}`);
      const store = testStore({
        [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete')}`,
        ...Object.fromEntries([pastLive, futureLive, earlierWriter, formerBoot, otherContainer].map((t) => [t, 'id: x\n'])),
      });
      // The clock set forward since the live writer wrote one, back since it wrote the other.
      const yearsAgo = new Date('2001-01-01T00:00:00Z');
      utimesSync(join(store, pastLive), yearsAgo, yearsAgo);
      const yearAhead = new Date(Date.now() + 365 * 86_400_000);
      utimesSync(join(store, futureLive), yearAhead, yearAhead);
      // What the report says --fix does with each is what it does: one story.
      const checked = await validate(store);
      const says = Object.fromEntries(
        checked.out.diagnostics.map((d: { file: string; hint: string }) => [d.file, /--fix` to remove it/.test(d.hint)]),
      );
      const r = await validate(store, '--fix');
      const done = Object.fromEntries(r.out.fixes.map((f: { file: string; done: boolean }) => [f.file, f.done]));
      expect(done).toEqual({ [pastLive]: false, [futureLive]: false, [earlierWriter]: true, [formerBoot]: true, [otherContainer]: false });
      expect(says).toEqual(done);
      for (const [t, removed] of Object.entries(done)) expect(existsSync(join(store, t))).toBe(!removed);
    } finally {
      writer.kill();
    }
  });

  it('finishes no move it cannot tell: two copies of one id without a mark, or marked by a move still running, are left', async () => {
    const copy = `${ML}\n${invariantYaml(A, 'Never delete')}`;
    const store = testStore({ [`global/${A}.yaml`]: copy, [`projects/web/${A}.yaml`]: copy.replace('../', '../../') });
    const unmarked = await validate(store, '--fix');
    expect(unmarked.code).toBe(1);
    expect(unmarked.out.fixes).toEqual([]);
    // A move of this process, running: its link to the copy it moves away.
    const marker = `global/.${A}.yaml.${writerMark()}.${process.pid}.0a1b2c3d.tmp`;
    linkSync(join(store, `global/${A}.yaml`), join(store, marker));
    const running = await validate(store, '--fix');
    expect(running.out.fixes.map((f: { file: string; action: string; done: boolean }) => [f.file, f.action, f.done])).toEqual([
      [marker, 'remove-temporary', false],
    ]);
    expect(existsSync(join(store, `global/${A}.yaml`)) && existsSync(join(store, `projects/web/${A}.yaml`))).toBe(true);
    // A move whose writer is gone, but one copy edited by hand since: which to keep is not ours to say.
    rmSync(join(store, marker));
    writeFileSync(join(store, `projects/web/${A}.yaml`), copy.replace('../', '../../').replace('Never delete', 'Never delete anything'));
    const [host, boot] = writerMark()!.split('-');
    const gone = `global/.${A}.yaml.${host}-${boot}-1.999999999.0a1b2c3d.tmp`;
    linkSync(join(store, `global/${A}.yaml`), join(store, gone));
    const edited = await validate(store, '--fix');
    expect(edited.out.fixes.map((f: { file: string; action: string; done: boolean }) => [f.file, f.action, f.done])).toEqual([
      [`global/${A}.yaml`, 'finish-move', false],
    ]);
    expect(existsSync(join(store, `global/${A}.yaml`)) && existsSync(join(store, gone))).toBe(true);
  });

  it("leaves the user's own hidden .tmp files alone: they are unknown paths, not the tool's temporaries", async () => {
    const own = { '.draft.tmp': 'my draft notes\n', 'global/.rule.tmp': 'half-edited rule\n', [`global/.${A}.yaml.tmp`]: 'x\n' };
    const store = testStore({ [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete')}`, ...own });
    const r = await validate(store, '--fix');
    expect(r.out.fixes).toEqual([]);
    for (const [p, text] of Object.entries(own)) expect(readFileSync(join(store, p), 'utf8')).toBe(text);
    expect(r.out.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file]).sort()).toEqual(
      Object.keys(own)
        .map((p) => ['unknown-path', p])
        .sort(),
    );
  });

  it('keeps the permissions of a file it renames or gives an id (a private file stays private)', async () => {
    const store = testStore({
      'global/no-id.yaml': `${ML}\ntext: Private rule\n`,
      [`global/${A}.yaml`]: `${ML}\n${invariantYaml(B, 'Private misnamed rule')}`,
    });
    chmodSync(join(store, 'global/no-id.yaml'), 0o600);
    chmodSync(join(store, `global/${A}.yaml`), 0o640);
    const r = await validate(store, '--fix');
    expect(r.out.fixes.map((f: { action: string; done: boolean }) => [f.action, f.done]).sort()).toEqual([
      ['add-id', true],
      ['rename', true],
    ]);
    const modes = Object.fromEntries(readdirSync(join(store, 'global')).map((n) => [n, statSync(join(store, 'global', n)).mode & 0o777]));
    expect(modes[`${B}.yaml`]).toBe(0o640);
    const added = Object.keys(modes).find((n) => n !== `${B}.yaml` && n.endsWith('.yaml'));
    expect(modes[added!]).toBe(0o600);
  });

  it('changes nothing else: duplicates, schema errors and syntax errors stay as they are', async () => {
    const files = {
      [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete')}`,
      [`global/${B}.yaml`]: `${ML}\n${invariantYaml(B, 'never delete')}`,
      [`global/${C}.yaml`]: `id: ${C}\ntext: [\n`,
    };
    const store = testStore(files);
    const r = await validate(store, '--fix');
    expect(r.out.fixes).toEqual([]);
    expect(r.code).toBe(1);
    for (const [p, text] of Object.entries(files)) expect(readFileSync(join(store, p), 'utf8')).toBe(text);
  });

  it('with PATHS, fixes only the files named: every other file stays as it was', async () => {
    const files = {
      [`global/${A}.yaml`]: invariantYaml(A, 'Named rule'),
      [`global/${B}.yaml`]: invariantYaml(B, 'Unnamed rule without modeline'),
      [`global/${C}.yaml`]: invariantYaml(D, 'Misnamed rule'),
      [`projects/web/${C}.yaml`]: invariantYaml(C, 'Another scope'),
      [`global/.${A}.yaml.999999999.0a1b2c3d.tmp`]: 'id: x\n',
    };
    const store = testStore(files);
    const r = await validate(store, '--fix', join(store, `global/${A}.yaml`));
    expect(r.out.fixes.map((f: { action: string; file: string; done: boolean }) => [f.action, f.file, f.done])).toEqual([
      ['add-modeline', `global/${A}.yaml`, true],
    ]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(`${ML}\n${files[`global/${A}.yaml`]}`);
    for (const [p, text] of Object.entries(files)) if (p !== `global/${A}.yaml`) expect(readFileSync(join(store, p), 'utf8')).toBe(text);
    expect(r.code).toBe(0);
  });

  it('with PATHS, a named file it renames is reported under its new name: its modeline fix, and the error it still has', async () => {
    const store = testStore({
      'global/misnamed.yaml': `id: ${A}\ntext: Misnamed rule\nseverity: fatal\n`,
      'global/no-id.yaml': 'text: A rule without an id\n',
    });
    const r = await validate(store, '--fix', join(store, 'global/misnamed.yaml'), join(store, 'global/no-id.yaml'));
    const given = r.out.fixes.find((f: { action: string }) => f.action === 'add-id').to;
    expect(r.out.fixes.map((f: { action: string; file: string; done: boolean }) => [f.action, f.file, f.done])).toEqual([
      ['rename', 'global/misnamed.yaml', true],
      ['add-modeline', `global/${A}.yaml`, true],
      ['add-id', 'global/no-id.yaml', true],
      ['add-modeline', given, true],
    ]);
    expect(r.out.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([['schema', `global/${A}.yaml`]]);
    expect(r.out.files).toBe(2);
    expect(r.code).toBe(1);
  });

  it('with PATHS, finishes a move only when the copy it left and its mark are among them, and never removes the mark alone', async () => {
    /** A move from global to projects/web cut short: both copies, and the mark beside the one it was removing. */
    const movedStore = () => {
      const copy = `${ML}\n${invariantYaml(A, 'Never delete')}`;
      const store = testStore({ [`global/${A}.yaml`]: copy, [`projects/web/${A}.yaml`]: copy.replace('../', '../../') });
      // The link an `invariant move` killed as it removed the old copy left beside it.
      const [host, boot] = writerMark()!.split('-');
      const mark = `global/.${A}.yaml.${host}-${boot}-1.999999999.0a1b2c3d.tmp`;
      linkSync(join(store, `global/${A}.yaml`), join(store, mark));
      const files = () => [`global/${A}.yaml`, mark, `projects/web/${A}.yaml`].map((p) => existsSync(join(store, p)));
      const fix = (...paths: string[]) =>
        runValidate(
          { store, cwd: dirname(store), fix: true, paths: paths.map((p) => join(store, p)) },
          { processAlive: () => false, hostname: 'test-host' },
        );
      return { files, fix };
    };
    // The kept copy's folder named: the copy left and its mark are outside it, and stay.
    const kept = movedStore();
    const named = await kept.fix('projects/web');
    expect(named.fixes).toEqual([]);
    expect(named.diagnostics.map((d) => [d.code, d.file])).toEqual([['id-reused', `projects/web/${A}.yaml`]]);
    expect(kept.files()).toEqual([true, true, true]);
    // The left copy's folder named, or both: the move is finished, never its mark removed alone as a stray temporary
    // (the id-reused finding is the kept copy's, outside the first PATHS).
    for (const paths of [['global'], ['projects/web', 'global']]) {
      const moved = movedStore();
      const r = await moved.fix(...paths);
      expect(
        r.fixes.filter((f) => f.done).map((f) => f.action),
        paths.join(' '),
      ).toEqual(['finish-move', 'remove-temporary']);
      expect(moved.files(), paths.join(' ')).toEqual([false, false, true]);
      expect(r.ok).toBe(true);
    }
  });

  it('reports each change in text output', async () => {
    const store = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Never delete') });
    const r = await runMain(['--store', store, 'validate', '--fix'], { cwd: dirname(store) });
    expect(r.stdout.split('\n')[0]).toBe(`fixed  added the schema modeline to global/${A}.yaml`);
    expect(r.code).toBe(0);
    writeFileSync(join(store, 'x'), '');
  });
});

describe('applyFixes: a file changed between the check and the fix', () => {
  it('writes no second modeline into a file that got one meanwhile, and says so; a file gone meanwhile is not done', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data'),
      [`global/${B}.yaml`]: invariantYaml(B, 'Keep a changelog'),
      [`global/${C}.yaml`]: invariantYaml(C, 'Use TLS'),
    });
    const tree = new WorkingTreeSource(store);
    const report = await validateTree(tree, {});
    expect(report.diagnostics.map((d) => d.code)).toEqual(['modeline-missing', 'modeline-missing', 'modeline-missing']);
    // Someone adds A's modeline and removes C before --fix writes.
    const edited = `${ML}\n${invariantYaml(A, 'Never delete production data')}`;
    writeFileSync(join(store, `global/${A}.yaml`), edited);
    rmSync(join(store, `global/${C}.yaml`));
    const seen: [string, string][] = [];
    const progress: number[] = [];
    const fixes = await applyFixes(tree, report, {
      processAlive: () => false,
      onModeline: (file, before) => seen.push([file, new TextDecoder().decode(before)]),
      onProgress: (done, total) => progress.push(done, total),
    });
    expect(fixes.map((f) => [f.file, f.done, f.message])).toEqual([
      [`global/${A}.yaml`, false, `kept global/${A}.yaml: it changed since it was checked, and has its modeline now`],
      [`global/${B}.yaml`, true, `added the schema modeline to global/${B}.yaml`],
      [`global/${C}.yaml`, false, `added the schema modeline to global/${C}.yaml: not done, it does not exist`],
    ]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(edited);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(`${ML}\n${invariantYaml(B, 'Keep a changelog')}`);
    expect(existsSync(join(store, `global/${C}.yaml`))).toBe(false);
    // The bytes the cache is told of are those read now, not those of the check.
    expect(seen).toEqual([[`global/${B}.yaml`, invariantYaml(B, 'Keep a changelog')]]);
    expect(progress).toEqual([1, 3, 2, 3, 3, 3]);
    // No temporaries left behind.
    expect(readdirSync(join(store, 'global')).sort()).toEqual([`${A}.yaml`, `${B}.yaml`]);
  });
});

describe('validate --fix while another --fix runs', () => {
  it('reports the store as it is after: modelines the other run added are not reported missing', async () => {
    const files = {
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data'),
      [`global/${B}.yaml`]: invariantYaml(B, 'Keep a changelog'),
    };
    const again = testStore(files);
    const raced = await runValidate(
      {
        store: again,
        cwd: dirname(again),
        fix: true,
        whileFixing: async (fix) => {
          for (const [rel, text] of Object.entries(files)) writeFileSync(join(again, rel), `${ML}\n${text}`);
          return fix(new AbortController().signal);
        },
      },
      { processAlive: () => false, hostname: 'test-host' },
    );
    expect(raced.fixes.map((f) => [f.file, f.done])).toEqual([
      [`global/${A}.yaml`, false],
      [`global/${B}.yaml`, false],
    ]);
    expect(raced.diagnostics).toEqual([]);
  });

  it('leaves a file the other run renamed or gave an id alone, and reports the store as it is after', async () => {
    const store = testStore({ 'global/hand.yaml': 'text: Keep backups\n', 'global/wrong.yaml': invariantYaml(C, 'Use TLS') });
    const raced = await runValidate(
      {
        store,
        cwd: dirname(store),
        fix: true,
        // The other run, between this one's check and its fixes: the id it gave, and the rename.
        whileFixing: async (fix) => {
          writeFileSync(join(store, `global/${D}.yaml`), `${ML}\nid: ${D}\ntext: Keep backups\n`);
          rmSync(join(store, 'global/hand.yaml'));
          writeFileSync(join(store, `global/${C}.yaml`), `${ML}\n${invariantYaml(C, 'Use TLS')}`);
          rmSync(join(store, 'global/wrong.yaml'));
          return fix(new AbortController().signal);
        },
      },
      { processAlive: () => false, hostname: 'test-host' },
    );
    // Nothing left to do: no second id, no second copy, and not the check's report of files gone since.
    expect(raced.fixes).toEqual([]);
    expect(raced.diagnostics).toEqual([]);
    expect(raced.ok).toBe(true);
    expect(readdirSync(join(store, 'global')).sort()).toEqual([`${C}.yaml`, `${D}.yaml`]);
  });
});

describe('a folder left by an interrupted project remove', () => {
  it('goes with the stale lock in it: both fixes done, none said kept', async () => {
    const [host, boot] = writerMark()!.split('-');
    const away = `projects/.web.${host}-${boot}-1.999999999.0a1b2c3d.tmp`;
    const store = testStore({ [`${away}/.lock`]: '999999999 test-host 2026-01-01T00:00:00Z\n' });
    const r = await runValidate({ store, cwd: dirname(store), fix: true }, { processAlive: () => false, hostname: 'test-host' });
    expect(r.fixes.map((f) => [f.file, f.done])).toEqual([
      [away, true],
      [`${away}/.lock`, true],
    ]);
    expect(r.ok).toBe(true);
    expect(existsSync(join(store, away))).toBe(false);
  });
});

describe('two --fix runs at once', () => {
  it('the one whose check came before the other finished a move reports the store as it is after: clean, exit 0', async () => {
    const copy = `${ML}\n${invariantYaml(A, 'Never delete')}`;
    const store = testStore({ [`global/${A}.yaml`]: copy, [`projects/web/${A}.yaml`]: copy.replace('../', '../../') });
    // The link an `invariant move` killed as it removed the old copy left beside it.
    const [host, boot] = writerMark()!.split('-');
    linkSync(join(store, `global/${A}.yaml`), join(store, `global/.${A}.yaml.${host}-${boot}-1.999999999.0a1b2c3d.tmp`));
    const deps = { processAlive: () => false, hostname: 'test-host' };
    let first: Awaited<ReturnType<typeof runValidate>> | undefined;
    const second = await runValidate(
      {
        store,
        cwd: dirname(store),
        fix: true,
        // The other run, whole, between this one's check and its fixes.
        whileFixing: async (fix) => {
          first = await runValidate({ store, cwd: dirname(store), fix: true }, deps);
          return fix(new AbortController().signal);
        },
      },
      deps,
    );
    expect(first!.ok).toBe(true);
    expect(first!.fixes.filter((f) => f.done).map((f) => f.action)).toEqual(['finish-move', 'remove-temporary']);
    expect(second.diagnostics).toEqual([]);
    expect(second.ok).toBe(true);
    expect(readdirSync(join(store, 'global'))).toEqual([]);
  });

  it('the one that removes the mark after the other removed the copy it marked reports the store clean, exit 0', async () => {
    const copy = `${ML}\n${invariantYaml(A, 'Never delete')}`;
    const store = testStore({ [`global/${A}.yaml`]: copy, [`projects/web/${A}.yaml`]: copy.replace('../', '../../') });
    const [host, boot] = writerMark()!.split('-');
    linkSync(join(store, `global/${A}.yaml`), join(store, `global/.${A}.yaml.${host}-${boot}-1.999999999.0a1b2c3d.tmp`));
    const second = await runValidate(
      {
        store,
        cwd: dirname(store),
        fix: true,
        // The other run finishing the move between this one's check and its fixes: the copy gone, its mark not yet.
        whileFixing: async (fix) => {
          rmSync(join(store, `global/${A}.yaml`));
          return fix(new AbortController().signal);
        },
      },
      { processAlive: () => false, hostname: 'test-host' },
    );
    expect(second.diagnostics).toEqual([]);
    expect(second.ok).toBe(true);
    expect(readdirSync(join(store, 'global'))).toEqual([]);
  });
});

describe('applyFixes: a temporary its writer put in place between the check and the fix', () => {
  it('is reported done (gone already), not a refused write: the run does not fail', async () => {
    const P = '01JDQ6X5Z8W4N3B2C1D0E9F8GB';
    const file = `global/.${A}.yaml.999999999.0a1b2c3d.tmp`;
    const folder = `plans/.${P}.999999999.0a1b2c3d.tmp`;
    const store = testStore({ [file]: 'id: x\n', [`${folder}/plan.yaml`]: 'id: y\n' });
    const tree = new WorkingTreeSource(store);
    const report = await validateTree(tree, {});
    expect(report.diagnostics.filter((d) => d.code === 'temporary-file').map((d) => d.file)).toEqual([file, folder]);
    // The writers (an `invariant add`, a `plan use`) finish now: each renames its temporary into place and exits.
    renameSync(join(store, file), join(store, `global/${A}.yaml`));
    renameSync(join(store, folder), join(store, `plans/${P}`));
    const fixes = await applyFixes(tree, report, { processAlive: () => false });
    expect(fixes.map((f) => [f.file, f.done, f.failed ?? false])).toEqual([
      [file, true, false],
      [folder, true, false],
    ]);
    expect(readdirSync(join(store, 'global'))).toEqual([`${A}.yaml`]);
    expect(readdirSync(join(store, `plans/${P}`))).toEqual(['plan.yaml']);
  });
});

describe('applyFixes: a writer of the same scope meanwhile', () => {
  it("holds the scope's lock from reading a file to renaming its new content into place: a writer in between waits, and its change stands", async () => {
    const store = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data'),
      [`global/${B}.yaml`]: invariantYaml(B, 'Keep a changelog'),
    });
    const tree = new WorkingTreeSource(store);
    const report = await validateTree(tree, {});
    const edited = `${ML}\n${invariantYaml(A, 'Never delete production data or backups')}`;
    const write = () => writeFileAtomic(store, `global/${A}.yaml`, edited, 'replace');
    let writer: Promise<unknown> | undefined;
    await applyFixes(tree, report, {
      processAlive: () => false,
      // A's new content is staged: a writer of global/ (an `invariant edit`) comes now. It writes at once if it
      // gets the lock; else it waits for it, as every writer does.
      onProgress: (done) => {
        if (done === 1)
          writer = withFolderLock(store, 'global', write, { timeoutMs: 0 }).catch(() => withFolderLock(store, 'global', write));
      },
    });
    await writer;
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(edited);
    expect(readFileSync(join(store, `global/${B}.yaml`), 'utf8')).toBe(`${ML}\n${invariantYaml(B, 'Keep a changelog')}`);
    expect(readdirSync(join(store, 'global')).sort()).toEqual([`${A}.yaml`, `${B}.yaml`]);
  });
});

/** A store of `n` global invariants, none with its modeline: their ids, their files' text by path, and the store. */
function withoutModelines(n: number) {
  const files: Record<string, string> = {};
  const ids = Array.from({ length: n }, (_, k) => `01M8PPW4BG${k.toString().padStart(16, '0')}`);
  for (const [k, id] of ids.entries()) files[`global/${id}.yaml`] = invariantYaml(id, `Keep check number ${k} green`);
  return { files, ids, store: testStore(files) };
}

describe('applyFixes: cancelled by its signal', () => {
  it('discards the modelines staged so far and puts none in place: every file as it was, no temporary left', async () => {
    const { files, ids, store } = withoutModelines(450);
    const tree = new WorkingTreeSource(store);
    const report = await validateTree(tree, {});
    expect(report.diagnostics.filter((d) => d.code === 'modeline-missing')).toHaveLength(450);
    const controller = new AbortController();
    const reason = new Error('stopped');
    const written: string[] = [];
    const fixing = applyFixes(tree, report, {
      processAlive: () => false,
      signal: controller.signal,
      // The signal comes in while the first 200 are staged: taken before the next 200.
      onProgress: (done) => {
        if (done === 100) controller.abort(reason);
      },
      onModeline: (file) => written.push(file),
    });
    await expect(fixing).rejects.toBe(reason);
    expect(written).toHaveLength(200);
    const names = readdirSync(join(store, 'global')).sort();
    expect(names).toEqual(ids.map((id) => `${id}.yaml`).sort());
    for (const id of ids) expect(readFileSync(join(store, `global/${id}.yaml`), 'utf8')).toBe(files[`global/${id}.yaml`]);
  });
});

describe('validate --fix stopped by a signal', () => {
  it('exits 130 (143 for SIGTERM) with every file as it was and no temporary left; the next --fix finishes', async () => {
    // 4,000 files without their modeline: staging them takes long enough for the signal to come in the middle.
    const { files, ids, store } = withoutModelines(4000);
    const global = join(store, 'global');
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      let child: ChildProcess | undefined;
      let exited = false;
      const running = spawnAsync(process.execPath, [BIN, '--store', store, 'validate', '--fix'], {
        cwd: dirname(store),
        started: (c) => (child = c),
      }).finally(() => (exited = true));
      // Sent once the first modeline stands staged beside its file (a hidden temporary).
      while (!exited && !readdirSync(global).some((n) => n.endsWith('.tmp'))) await new Promise((r) => setTimeout(r, 5));
      expect(exited, 'validate --fix ended before a modeline was staged').toBe(false);
      child!.kill(signal);
      const r = await running;
      expect(r.code, r.stderr).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(readdirSync(global).sort()).toEqual(ids.map((id) => `${id}.yaml`).sort());
      for (const id of ids) expect(readFileSync(join(global, `${id}.yaml`), 'utf8')).toBe(files[`global/${id}.yaml`]);
    }
    const done = await validate(store, '--fix');
    expect(done.code).toBe(0);
    expect(done.out.fixes.filter((f: { done: boolean }) => f.done)).toHaveLength(4000);
    expect(readFileSync(join(global, `${ids[0]}.yaml`), 'utf8').startsWith(ML)).toBe(true);
  }, 120_000);
});

describe('validate --fix and locks', () => {
  it('a scope another writer holds past the wait gets no modeline, each saying so; every other fix stands and is reported', async () => {
    const { hostname } = await import('node:os');
    const store = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete data'),
      'global/.lock': `${process.ppid} ${hostname()} ${new Date().toISOString()}\n`,
      [`projects/web/${B}.yaml`]: invariantYaml(B, 'Use TLS'),
      'projects/web/.x.yaml.999999999.ab12.tmp': '',
    });
    const r = await runMain(['--store', store, 'validate', '--format', 'json', '--fix'], {
      cwd: dirname(store),
      env: { AGENTS_LOCK_TIMEOUT_MS: '100' },
    });
    expect(r.code, r.stderr).toBe(0);
    const fixes = JSON.parse(r.stdout).fixes as { file: string; action: string; done: boolean }[];
    expect(fixes.map((f) => [f.action, f.file, f.done])).toEqual([
      ['remove-temporary', 'projects/web/.x.yaml.999999999.ab12.tmp', true],
      ['add-modeline', `global/${A}.yaml`, false],
      ['add-modeline', `projects/web/${B}.yaml`, false],
    ]);
    expect(readdirSync(join(store, 'projects/web'))).toEqual([`${B}.yaml`]);
    expect(readFileSync(join(store, `global/${A}.yaml`), 'utf8')).toBe(invariantYaml(A, 'Never delete data'));
    expect(existsSync(join(store, 'global/.lock'))).toBe(true);
  });

  it('renames and gives ids only holding the scope lock: a scope another writer holds keeps its files, each fix saying so', async () => {
    const { hostname } = await import('node:os');
    const store = testStore({
      'global/.lock': `${process.ppid} ${hostname()} ${new Date().toISOString()}\n`,
      'global/hand.yaml': 'text: Keep backups\n',
      'global/wrong.yaml': invariantYaml(C, 'Use TLS'),
    });
    const r = await runMain(['--store', store, 'validate', '--format', 'json', '--fix'], {
      cwd: dirname(store),
      env: { AGENTS_LOCK_TIMEOUT_MS: '100' },
    });
    // Not a refusal of the file system: the files still to fix are the report's errors.
    expect(r.code, r.stderr).toBe(1);
    const fixes = JSON.parse(r.stdout).fixes as { file: string; action: string; done: boolean }[];
    expect(fixes.map((f) => [f.action, f.file, f.done])).toEqual([
      ['add-id', 'global/hand.yaml', false],
      ['rename', 'global/wrong.yaml', false],
    ]);
    expect(readdirSync(join(store, 'global')).sort()).toEqual(['.lock', 'hand.yaml', 'wrong.yaml']);
    expect(readFileSync(join(store, 'global/hand.yaml'), 'utf8')).toBe('text: Keep backups\n');
  });

  it('removes a lock of a process that is gone, and keeps one of a running process', async () => {
    const { hostname } = await import('node:os');
    const store = testStore({
      [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete data')}`,
      'global/.lock': `999999999 ${hostname()} 2026-11-29T12:00:00Z\n`,
      'projects/web/.lock': `${process.ppid} ${hostname()} ${new Date().toISOString()}\n`,
    });
    const r = await validate(store, '--fix');
    expect(r.code).toBe(0);
    expect(r.out.fixes.map((f: { file: string; action: string; done: boolean }) => [f.action, f.file, f.done])).toEqual([
      ['remove-stale-lock', 'global/.lock', true],
    ]);
    expect(r.out.diagnostics).toEqual([]);
    expect(existsSync(join(store, 'global/.lock'))).toBe(false);
    expect(existsSync(join(store, 'projects/web/.lock'))).toBe(true);
  });

  it('a stale lock it cannot remove (a read-only store) is a refused fix: exit 2, write-failed, the lock kept', async () => {
    const { hostname } = await import('node:os');
    const lock = `999999999 ${hostname()} 2026-11-29T12:00:00Z\n`;
    const store = testStore({ [`global/${A}.yaml`]: `${ML}\n${invariantYaml(A, 'Never delete data')}`, 'global/.lock': lock });
    const r = runReadOnly(store, ['validate', '--format', 'json', '--fix']);
    expect(r.status, r.stderr).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.error.code).toBe('write-failed');
    expect(out.error.detail.fixes.map((f: { file: string; action: string; done: boolean }) => [f.action, f.file, f.done])).toEqual([
      ['remove-stale-lock', 'global/.lock', false],
    ]);
    expect(readFileSync(join(store, 'global/.lock'), 'utf8')).toBe(lock);
  });
});
