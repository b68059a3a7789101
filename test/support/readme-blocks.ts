/**
 * README.md's shell blocks as the tests run them: read at test time, so the README stays the source of truth.
 * A block is cut into commands (lines joined over trailing backslashes) with the comment lines that follow each
 * (`# -> 202, Location: ...`), which say what the command answers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');

export function readme(): string {
  return readFileSync(path.join(ROOT, 'README.md'), 'utf8');
}

/** The ```sh blocks of the section under `heading` (up to the next heading of its level or higher). */
export function shBlocksUnder(markdown: string, heading: string): string[] {
  const level = /^#+/.exec(heading)![0].length;
  const start = markdown.split('\n').indexOf(heading);
  assert.ok(start >= 0, `README.md has no heading "${heading}"`);
  const lines = markdown.split('\n').slice(start + 1);
  let fenced = false; // a shell comment inside a block is no heading
  const end = lines.findIndex((l) => ((fenced = l.startsWith('```') ? !fenced : fenced), !fenced && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level));
  const section = lines.slice(0, end < 0 ? undefined : end).join('\n');
  const blocks = [...section.matchAll(/```sh\n([^]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length > 0, `no sh block under "${heading}"`);
  return blocks;
}

export interface ShCommand {
  /** The command as bash reads it, continuation lines joined. */
  text: string;
  /** The comment lines right after it. */
  notes: string[];
}

export function commandsOf(block: string): ShCommand[] {
  const out: ShCommand[] = [];
  const lines = block.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      out[out.length - 1]?.notes.push(line);
      continue;
    }
    let text = lines[i];
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i].trim()}`;
    out.push({ text, notes: [] });
  }
  return out;
}

/** The HTTP status a curl command's notes promise (`# -> 202, ...`); 200 when they promise a body or nothing. */
export function promisedStatus(command: ShCommand): number {
  for (const note of command.notes) {
    const m = /^# -> (\d{3})\b/.exec(note);
    if (m) return Number(m[1]);
  }
  return 200;
}
