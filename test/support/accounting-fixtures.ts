/** The small cluster and hour-long stages both accounting test files solve on. */
export const HOUR = 3600;
export const STARTS_AT = '2030-01-01T00:00:00.000Z';

export function accountingCluster(name: string) {
  return {
    name,
    metrics: ['cpu', 'ram'],
    nodes: [
      { id: 'w01', capacity: { cpu: 4, ram: 16 }, speed: 1 },
      { id: 'w02', capacity: { cpu: 4, ram: 16 }, speed: 1 },
    ],
  };
}

/** A stage of `tasks` one-core tasks of `hours` each, after the stages named in `after`. */
export const stage = (id: string, tasks: number, hours: number, after?: string[]) => ({
  id,
  tasks,
  demand: { cpu: 1, ram: 2 },
  durationSeconds: hours * HOUR,
  ...(after ? { after } : {}),
});
