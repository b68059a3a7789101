import { Random } from '../src/engine/random';

/**
 * A block's replicas as HDFS places them (3 copies: a node, a second in another rack, a third in the second's
 * rack), drawn from `rng`; fewer when the racks do not allow three distinct nodes. The instance generators that
 * give jobs input blocks (acobp-instance.ts, scale-instance.ts with transfers) place them with this.
 */
export function hdfsReplicas(nodes: readonly { id: string; rack?: string }[], rng: Random): () => string[] {
  const byRack = new Map<string | undefined, number[]>();
  nodes.forEach((n, k) => byRack.set(n.rack, [...(byRack.get(n.rack) ?? []), k]));
  const rackNames = [...byRack.keys()];
  return () => {
    const first = rng.int(nodes.length);
    const otherRacks = rackNames.filter((r) => r !== nodes[first].rack);
    const second = otherRacks.length ? rng.pick(byRack.get(rng.pick(otherRacks))!) : first;
    const third = rng.pick(byRack.get(nodes[second].rack)!.filter((k) => k !== second && k !== first)) ?? second;
    return [...new Set([first, second, third])].map((k) => nodes[k].id);
  };
}
