/**
 * A tiny instance that gives network fields (racks, link rates, blocks, outputMB), so that a solve prices its
 * transfers unless asked not to: what the tests of the solve option `transfers` (API and CLI) solve.
 */
import type { InstanceDoc } from '../../src/engine/model/types';

// Two racks of two nodes; 1000 Mbit/s within a rack, 100 across. Four maps whose 128 MB blocks live one per
// node, each writing 200 MB; two reduces after them, each reading 100 MB of every map's output, so a reduce
// fetches for at least a slot (10 s) from any map on another node.
export const NETWORK_INSTANCE: InstanceDoc = {
  format: 'fallow.instance/v1',
  name: 'two-racks',
  horizon: { slots: 40, slotSeconds: 10 },
  metrics: ['cpu', 'ram'],
  network: { intraRackMbps: 1000, interRackMbps: 100 },
  nodes: [
    { id: 'a1', rack: 'r1', bandwidthMbps: 1000, capacity: { cpu: 2, ram: 8 } },
    { id: 'a2', rack: 'r1', bandwidthMbps: 1000, capacity: { cpu: 2, ram: 8 } },
    { id: 'b1', rack: 'r2', bandwidthMbps: 1000, capacity: { cpu: 2, ram: 8 } },
    { id: 'b2', rack: 'r2', bandwidthMbps: 1000, capacity: { cpu: 2, ram: 8 } },
  ],
  jobs: [
    {
      id: 'wc',
      stages: [
        { id: 'map', tasks: 4, demand: { cpu: 1, ram: 2 }, durationSeconds: 30, inputMB: 128, outputMB: 200, blocks: [['a1'], ['a2'], ['b1'], ['b2']] },
        { id: 'reduce', tasks: 2, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 30 },
      ],
    },
  ],
};
