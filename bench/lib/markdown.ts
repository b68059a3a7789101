/**
 * Report writing shared by the benchmarks: the header line naming the run (date, machine, command), Markdown
 * tables, and generated sections of a hand-edited report.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { MachineInfo } from './machine';

/** "Run 2026-11-27T23:40 on CPU (N cores)": when and where a report's figures were measured. */
export function ranOn(date: string, machine: Pick<MachineInfo, 'cpu' | 'cores'>): string {
  return `Run ${date.slice(0, 16)} on ${machine.cpu} (${machine.cores} cores)`;
}

/** "Run 2026-11-27T23:40 on CPU (N cores) with `command`." — the first line of a report that names its run. */
export function runLine(date: string, machine: Pick<MachineInfo, 'cpu' | 'cores'>, command: string): string {
  return `${ranOn(date, machine)} with \`${command}\`.`;
}

/** A Markdown table: the header row, the `|---|` rule, one line per row (cells printed as given). */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** Replaces a generated section (<!-- name:start --> ... <!-- name:end -->) of a markdown file, keeping the hand-written discussion around it. */
export function writeResultsSection(file: string, md: string, name: string): void {
  const START = `<!-- ${name}:start -->`;
  const END = `<!-- ${name}:end -->`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : `# Simulation benchmark\n`;
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  const next = a >= 0 && b > a ? text.slice(0, a + START.length) + '\n' + md + '\n' + text.slice(b) : `${text}\n${START}\n${md}\n${END}\n`;
  writeFileSync(file, next);
}

/** "`npm run bench:charts` (bench/charts.ts), 2026-11-27 23:40 UTC, on CPU, N cores, M GB, Node v, OS." */
export function generatedLine(command: string, file: string, m: MachineInfo, date = new Date()): string {
  return `\`${command}\` (${file}), ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC, on ${m.cpu}, ${m.cores} cores, ${m.memGB} GB, Node ${m.node}, ${m.os}.`;
}
