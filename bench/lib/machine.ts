/** The machine a benchmark ran on, stored in every results file and printed in every report's header. */
import * as os from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memGB: number;
  node: string;
  os: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** A results file's date stamp, local-free: 2026-11-27T23:40:47Z -> 20261127-234047. */
export function timestamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
}
