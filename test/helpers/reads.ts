import type { TreeSource } from '../../src/store/tree-source.ts';

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
