// A read of the MCP server's store checked before and after it (src/mcp/store-here.ts): a store moved away while a
// tool, a resource or a prompt reads it is `no-store`, never the store that holds nothing it then lists.
import { renameSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { readingStore } from '../../src/mcp/store-here.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const ID = '01M8XXA0000000000000000000';

/** The error a read ends with, or undefined when it answers. */
async function failure(read: Promise<unknown>): Promise<{ code?: string; exitCode?: number } | undefined> {
  return read.then(
    () => undefined,
    (error: { code?: string; exitCode?: number }) => error,
  );
}

describe('readingStore', () => {
  it('answers a read of a store that stays, and refuses one that starts without it', async () => {
    const root = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data') });
    const service = new InvariantService(root);
    expect((await readingStore(root, () => service.list())).map((i) => i.invariant.id)).toEqual([ID]);
    renameSync(root, `${root}.away`);
    expect(await failure(readingStore(root, () => service.list()))).toMatchObject({ code: 'no-store', exitCode: 2 });
  });

  it('a store moved away during the read is no-store, not the empty list or the unknown project the read made of it', async () => {
    const root = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data') });
    const service = new InvariantService(root);
    const listed = readingStore(root, async () => {
      renameSync(root, `${root}.away`);
      return service.list();
    });
    expect(await failure(listed)).toMatchObject({ code: 'no-store', exitCode: 2 });
    renameSync(`${root}.away`, root);
    const unknown = readingStore(root, async () => {
      renameSync(root, `${root}.away`);
      throw new UsageError('unknown project billing', 'Known projects: (none).', undefined, 'unknown-project');
    });
    expect(await failure(unknown)).toMatchObject({ code: 'no-store', exitCode: 2 });
  });

  it('a store moved away and back during the read is read again: its list, not the empty one the read made of it', async () => {
    const root = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data') });
    const service = new InvariantService(root);
    let reads = 0;
    const awayAndBack = async () => {
      if (++reads > 1) return service.list();
      renameSync(root, `${root}.away`);
      try {
        return await service.list();
      } finally {
        renameSync(`${root}.away`, root);
      }
    };
    expect((await readingStore(root, awayAndBack)).map((i) => i.invariant.id)).toEqual([ID]);
    expect(reads).toBe(2);
    // Moved under every read: a clear error, never a shortened set.
    const always = readingStore(root, async () => {
      renameSync(root, `${root}.away`);
      try {
        return await service.list();
      } finally {
        renameSync(`${root}.away`, root);
      }
    });
    expect(await failure(always)).toMatchObject({ code: 'store-changed', exitCode: 2 });
  });

  it('the notes of a read made again are those of the read answered, not of the one that saw the store away', async () => {
    const root = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data') });
    const service = new InvariantService(root);
    const notes: string[] = [];
    let reads = 0;
    const list = await readingStore(
      root,
      async () => {
        if (++reads > 1) return service.list();
        // What the server's notice hook gathers while a read sees the store half away.
        notes.push('plan 01M8 targets project web, which is not in the store');
        renameSync(root, `${root}.away`);
        renameSync(`${root}.away`, root);
        return [];
      },
      notes,
    );
    expect(list.map((i) => i.invariant.id)).toEqual([ID]);
    expect(reads).toBe(2);
    expect(notes).toEqual([]);
  });
});
