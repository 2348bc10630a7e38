import { type TreeEntry, type TreeSource, WorkingTreeSource } from '../../src/store/tree-source.ts';

/** `source`, with every path it is asked to read recorded in `read`. */
export function recordReads<S extends TreeSource>(source: S): { source: S; read: string[] } {
  const read: string[] = [];
  const original = source.read.bind(source);
  source.read = (paths) => {
    read.push(...paths);
    return original(paths);
  };
  return { source, read };
}

/** The working tree, where `write` (another process's or writer's write) runs once, right after the first listing of the whole store. */
export class RacedSource extends WorkingTreeSource {
  constructor(
    root: string,
    private write: (() => void) | undefined,
  ) {
    super(root);
  }
  override async list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    const listed = await super.list(dir, options);
    if (dir === '' && options?.recursive) {
      this.write?.();
      this.write = undefined;
    }
    return listed;
  }
}
