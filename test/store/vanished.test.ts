import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isVanished, readFailure } from '../../src/store/read-plan.ts';
import { readStore } from '../../src/store/read.ts';
import { type ReadResult, type TreeSource, WorkingTreeSource } from '../../src/store/tree-source.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/** What the working tree answers for `path`, once read. */
async function readOne(root: string, path: string): Promise<Exclude<ReadResult, { ok: true }>> {
  const r = (await new WorkingTreeSource(root).read([path])).get(path)!;
  if (r.ok) throw new Error(`${path} was read`);
  return r;
}

// settled-read.ts reads the store again for a file that vanished between its listing and its read: isVanished must
// know each such finding by what it is, and no other finding, whatever its wording.
describe('isVanished: a file listed, then gone when read', () => {
  it('a file removed since it was listed (ENOENT)', async () => {
    const root = testStore({ [`projects/web/${A}.yaml`]: invariantYaml(A, 'Keep the API stable') });
    rmSync(join(root, `projects/web/${A}.yaml`));
    const r = await readOne(root, `projects/web/${A}.yaml`);
    expect(r.code).toBe('missing');
    const d = readFailure(`projects/web/${A}.yaml`, r);
    expect([d.code, isVanished(d)]).toEqual(['file-unreadable', true]);
  });

  it('a file whose folder was removed and a file made at its name since it was listed (ENOTDIR)', async () => {
    const root = testStore({ [`projects/web/${A}.yaml`]: invariantYaml(A, 'Keep the API stable') });
    rmSync(join(root, 'projects/web'), { recursive: true });
    writeFileSync(join(root, 'projects/web'), '');
    const r = await readOne(root, `projects/web/${A}.yaml`);
    expect(r.code).toBe('missing');
    expect(isVanished(readFailure(`projects/web/${A}.yaml`, r))).toBe(true);
  });

  it("a plan's plan.yaml, asked for once its folder was listed, missing when read", async () => {
    const root = testStore({ [`plans/${PLAN}/`]: null });
    const d = readFailure(`plans/${PLAN}/plan.yaml`, await readOne(root, `plans/${PLAN}/plan.yaml`));
    expect([d.code, isVanished(d)]).toEqual(['plan-missing', true]);
  });

  it('never a finding of the same code, place and wording that no read of a vanished file made', () => {
    const at = { severity: 'error', line: 0, col: 0 } as const;
    const file = `global/${A}.yaml`;
    expect(isVanished({ ...at, code: 'file-unreadable', file, message: `${file} vanished while it was read` })).toBe(false);
    const plan = `plans/${PLAN}/plan.yaml`;
    expect(
      isVanished({ ...at, code: 'plan-missing', file: plan, message: `plan folder plans/${PLAN}/ has no plan.yaml when it is read` }),
    ).toBe(false);
  });

  it('never a file the system refused, nor a name that is not UTF-8', () => {
    const refused = readFailure(`global/${A}.yaml`, { ok: false, code: 'file-unreadable', message: 'cannot be read (EACCES)' });
    expect([refused.code, isVanished(refused)]).toEqual(['file-unreadable', false]);
    const notUtf8 = readFailure('global/caf\uFFFD.yaml', { ok: false, code: 'missing', message: 'does not exist' });
    expect([notUtf8.code, isVanished(notUtf8)]).toEqual(['file-name-not-utf8', false]);
  });
});

describe('a reader racing a writer that replaces a folder it listed by a file', () => {
  it('reads the store again, whole, and says the file where the folder goes, never a file that cannot be read', async () => {
    const root = testStore({ [`projects/web/${A}.yaml`]: invariantYaml(A, 'Keep the API stable') });
    const tree = new WorkingTreeSource(root);
    let lists = 0;
    const source: TreeSource = {
      description: tree.description,
      read: (paths) => tree.read(paths),
      async list(dir, options) {
        const entries = await tree.list(dir, options);
        // Once the first listing is taken, before its files are read.
        if (++lists === 1) {
          rmSync(join(root, 'projects/web'), { recursive: true });
          writeFileSync(join(root, 'projects/web'), '');
        }
        return entries;
      },
    };
    const snap = await readStore(source);
    expect(lists).toBe(2);
    expect(snap.invariants).toEqual([]);
    expect(snap.diagnostics.map((d) => d.file)).toEqual(['projects/web']);
  });
});
