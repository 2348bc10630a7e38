import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryName } from '../../src/core/layout.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { removeProject } from '../../src/service/project-remove.ts';
import { withFolderLock } from '../../src/store/lock.ts';
import { type TreeSource, WorkingTreeSource } from '../../src/store/tree-source.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const ONLY = '01M8KJT9G0XNWEM589ZS7FV0VT';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/**
 * A service on the store whose reads go through `hook` first: `hook(dir)` runs as `dir` is listed, once the listing
 * is taken, as another process's write comes between a read and what is done with it.
 */
function serviceWith(root: string, hook: (dir: string) => Promise<void> | void): InvariantService {
  const tree = new WorkingTreeSource(root);
  const source: TreeSource = {
    description: tree.description,
    read: (paths) => tree.read(paths),
    async list(dir, options) {
      const entries = await tree.list(dir, options);
      await hook(dir);
      return entries;
    },
  };
  return new InvariantService(root, { author: async () => undefined }, source);
}

// A project's last invariant removed takes the project's folder with it, unless a plan targets the project
// (docs/commands.md, `invariant move` and `remove`). `plan use --project` writes its plan under the project's lock.
describe("a project's last invariant removed while another writer comes", () => {
  it('a plan use for the project as the plans are read: the plan lands first and keeps the project, or finds it gone; never a plan of a removed project', async () => {
    const root = testStore({ [`projects/web/${ONLY}.yaml`]: invariantYaml(ONLY, 'Only rule of web') });
    // What `plan use --project web` does under the project's lock: a folder the lock had to make is a project gone.
    const planUse = (made: boolean) => {
      if (made) throw new Error('project web is gone');
      mkdirSync(join(root, `plans/${PLAN}`));
      writeFileSync(join(root, `plans/${PLAN}/plan.yaml`), `id: ${PLAN}\naction: local/a\nproject: web\n`);
    };
    let outcome: Promise<'planned' | 'refused'> | undefined;
    const svc = serviceWith(root, async (dir) => {
      if (dir !== 'plans' || outcome !== undefined) return;
      const use = (options: { timeoutMs?: number }) =>
        withFolderLock(root, 'projects/web', planUse, options).then(() => 'planned' as const);
      // It writes at once if it gets the lock; else it waits for it, as every writer does.
      const first = use({ timeoutMs: 0 });
      outcome = first.catch(() => use({}).catch(() => 'refused' as const));
      await first.catch(() => undefined);
    });
    await svc.remove(ONLY);
    expect(outcome).toBeDefined();
    const planned = (await outcome) === 'planned';
    expect(existsSync(join(root, `plans/${PLAN}/plan.yaml`))).toBe(planned);
    if (planned) expect(readdirSync(join(root, 'projects'))).toEqual(['web']);
    if (planned) expect(readdirSync(join(root, 'projects/web'))).toEqual(['.gitkeep']);
    else expect(readdirSync(join(root, 'projects'))).toEqual([]);
  });

  it("a writer's try at the lock, beside it as the folder is judged, leaves neither the folder nor the try behind", async () => {
    const root = testStore({ [`projects/web/${ONLY}.yaml`]: invariantYaml(ONLY, 'Only rule of web') });
    const attempt = join(root, 'projects/web', temporaryName('.lock', 4_000_000, undefined, 'ab12cd34'));
    const svc = serviceWith(root, (dir) => {
      if (dir === 'projects/web') writeFileSync(attempt, '4000000 host 0\n');
    });
    await svc.remove(ONLY);
    expect(readdirSync(join(root, 'projects'))).toEqual([]);
  });

  it("project remove: a waiting writer's try at the project's lock is no file of the project; the project goes, and the try with it", async () => {
    const root = testStore({ 'projects/web/.gitkeep': '' });
    writeFileSync(join(root, 'projects/web', temporaryName('.lock', 4_000_000, undefined, 'ab12cd34')), '4000000 host 0\n');
    const svc = new InvariantService(root, { author: async () => undefined });
    expect(await removeProject(svc, { project: 'web' })).toMatchObject({ project: 'web', removed: ['projects/web/.gitkeep'] });
    expect(readdirSync(join(root, 'projects'))).toEqual([]);
  });
});
