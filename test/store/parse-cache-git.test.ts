import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitTreeSource } from '../../src/store/git-source.ts';
import { ParseCache } from '../../src/store/parse-cache.ts';
import { readFolders } from '../../src/store/read.ts';
import { commitAll, gitInit } from '../helpers/git.ts';
import { recordReads } from '../helpers/reads.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

const G1 = '01JAAAAAAAAAAAAAAAAAAAAAA1';
const G2 = '01JAAAAAAAAAAAAAAAAAAAAAA2';

/** A repository whose store holds two global invariants (one invalid), committed twice: the second commit edits G1. */
function repo(): { top: string; first: string; second: string } {
  const top = tempDir();
  gitInit(top);
  writeTree(join(top, '.agents'), {
    [`global/${G1}.yaml`]: invariantYaml(G1, 'Never delete production data'),
    [`global/${G2}.yaml`]: invariantYaml(G2, 'Keep the changelog', { severity: 'urgent' }),
  });
  const first = commitAll(top, 'first');
  writeTree(join(top, '.agents'), { [`global/${G1}.yaml`]: invariantYaml(G1, 'Never drop production tables') });
  const second = commitAll(top, 'second');
  return { top, first, second };
}

/** The store at `commit`, keeping parses in `cache` when given, and the paths it read. */
async function at(top: string, commit: string, cache?: ParseCache) {
  const source = await GitTreeSource.atCommit(
    join(top, '.agents'),
    top,
    commit,
    commit.slice(0, 12),
    cache && { cache, prefix: 'extends/policy/' },
  );
  return recordReads(source);
}

describe('the parse cache for a commit (policy sources)', () => {
  it('keeps parses by blob id: a second read of a commit reads nothing, a commit that changed a file reads that file alone', async () => {
    const { top, first, second } = repo();
    const dir = join(tempDir(), 'parsed');
    const fresh = await readFolders((await at(top, first)).source, ['global']);
    expect(fresh.diagnostics.map((d) => d.code)).toEqual(['schema']);
    const one = await at(top, first, new ParseCache(dir, 'b1'));
    expect(await readFolders(one.source, ['global'])).toStrictEqual(fresh);
    expect(one.read.length).toBe(2);
    const two = await at(top, first, new ParseCache(dir, 'b1'));
    expect(await readFolders(two.source, ['global'])).toStrictEqual(fresh);
    expect(two.read).toEqual([]);
    // The next commit: G1's blob is new, G2's is the same.
    const next = await at(top, second, new ParseCache(dir, 'b1'));
    const snap = await readFolders(next.source, ['global']);
    expect(next.read).toEqual([`global/${G1}.yaml`]);
    expect(snap).toStrictEqual(await readFolders((await at(top, second)).source, ['global']));
    expect(snap.invariants.map((i) => i.text)).toEqual(['Never drop production tables']);
    // One group, kept apart from the working tree's by its prefix.
    expect(readdirSync(dir).length).toBe(1);
  });
});
