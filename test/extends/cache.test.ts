// The cache of policy sources under the git folder (docs/extends.md): one bare repository per source, and
// nothing else of `extends fetch` left in it.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll } from '../helpers/git.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';
import { LATER, LOCAL, LOCKED, SECRETS, consumer, effectiveIds, policyCommit, policyRepo, run } from './repos.ts';

describe('the cache of policy sources', () => {
  it('a source named X.check keeps its cache through the branch check of the source X', async () => {
    const dir = tempDir();
    const other = policyRepo(dir, 'other');
    const pol = policyRepo(dir, 'pol');
    const app = consumer(dir, `  - url: ${other.url}\n    ref: v1\n    name: pol.check\n  - url: ${pol.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pins');
    // The branch moves on: the pin is an ancestor now, which the check fetches the branch's history to tell.
    policyCommit(pol, { [`.agents/global/${LATER}.yaml`]: invariantYaml(LATER, 'Rule added later') });
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const fetch = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetch.code).toBe(0);
    expect(
      readdirSync(join(app, '.git', 'agents', 'extends'))
        .filter((n) => n !== '.lock')
        .sort(),
    ).toEqual(['pol.check.git', 'pol.git']);
    expect(await effectiveIds(app)).toEqual([LOCAL, LOCKED, SECRETS]);
  });
});
