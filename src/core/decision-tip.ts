import type { DecisionNode } from './record-types.ts';

/**
 * The latest node of a decision tree, the parent of the next run: the newest (greatest ULID) of the nodes no other
 * node names as its parent, the tips; the newest of all when every node is some node's parent (a loop). A node
 * dated ahead by a skewed clock is then latest only until a run is made after it: that run names it as parent.
 */
export function latestDecision<N extends Pick<DecisionNode, 'id' | 'parent_id'>>(nodes: readonly N[]): N | undefined {
  const parents = new Set<string | null>(nodes.map((n) => n.parent_id));
  let newest: N | undefined;
  let tip: N | undefined;
  for (const n of nodes) {
    if (!newest || n.id > newest.id) newest = n;
    if (!parents.has(n.id) && (!tip || n.id > tip.id)) tip = n;
  }
  return tip ?? newest;
}
