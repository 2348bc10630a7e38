// A read of the store made again because a writer changed the store during it (src/store/settled-read.ts) leaves no
// note of the read it discards: the notes of an answer (the MCP server's `_meta["agents/notices"]`) are those of the
// read it gives.
import { describe, expect, it } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import type { TreeEntry } from '../../src/store/tree-source.ts';
import { MemorySource } from '../helpers/memory-source.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const WEB = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';

/**
 * A store whose first listing of project web's folder is taken while a writer has it away (a checkout swapping it),
 * and whose write generation moves on during that listing: the read is made again, and then finds web as it is.
 */
class SwappingSource extends MemorySource {
  #generation = 0;
  #swapped = false;
  /** The folders listed, in order. */
  readonly listings: string[] = [];
  generation(): string {
    return String(this.#generation);
  }
  override async list(dir = '', options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    const all = await super.list(dir, options);
    const asked =
      dir === ''
        ? all
        : all.filter((e) => e.path.startsWith(`${dir}/`) && (options?.recursive || !e.path.slice(dir.length + 1).includes('/')));
    this.listings.push(dir);
    if (this.#swapped || !['', 'projects', 'projects/web'].includes(dir)) return asked;
    this.#swapped = true;
    this.#generation++;
    return asked.filter((e) => e.path !== 'projects/web' && !e.path.startsWith('projects/web/'));
  }
}

const store = () =>
  new SwappingSource({
    'global/': null,
    [`projects/web/${WEB}.yaml`]: `id: ${WEB}\ntext: Keep the API stable\n`,
    [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: web\ngoal: Upgrade\ncreated_at: 2026-11-29T12:06:00Z\ncreated_by: Team <t@example.com>\n`,
  });

describe('notes of a read made again', () => {
  it("a plan's set read again after a writer's moment says no project gone, and holds the project's invariants", async () => {
    const notes: string[] = [];
    const source = store();
    const service = new InvariantService('/nowhere/.agents', { notice: (m) => notes.push(m) }, source);
    const set = await service.effective({ plan: PLAN });
    // The read that saw web away was made again.
    expect(source.listings.filter((d) => d === 'projects/web')).toHaveLength(2);
    expect(set.entries.map((e) => e.invariant.id)).toEqual([WEB]);
    expect(set.warnings).toEqual([]);
    expect(notes).toEqual([]);
  });
});
