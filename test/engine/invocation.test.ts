/**
 * No command the project shows can fetch a package from the registry (issue 26: `npx fallow` outside the
 * checkout installed and ran an unrelated registry package named fallow), and nothing points at a format
 * document that only exists beside the repository. Scans the documents, the sources (help texts and
 * messages) and the help the compiled CLI prints.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');

/** `npx [flags] fallow` unless a flag forbids installing (--no-install, --no). */
const NPX_FALLOW = /\bnpx((?:\s+-[\w-]+(?:=\S+)?)*)\s+fallow\b/g;

function npxFallow(text: string): string[] {
  return [...text.matchAll(NPX_FALLOW)].filter((m) => !/(^|\s)--no(-install)?\b/.test(m[1])).map((m) => m[0]);
}

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'results' ? [] : files(rel, ext);
    return ext.test(d.name) ? [rel] : [];
  });
}

const DOCUMENTS = ['README.md', 'package.json', ...files('docs', /\.md$/), ...files('bench', /\.md$/), ...files('examples', /\.(md|sh|ts)$/), ...files('scripts', /$/)];
const SOURCES = files('src', /\.ts$/);

function helps(): string[] {
  const overview = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }).stdout;
  const commands = [...overview.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]);
  assert.ok(commands.includes('solve') && commands.length >= 6, overview);
  return [overview, ...commands.map((c) => spawnSync(process.execPath, [CLI, c, '--help'], { encoding: 'utf8' }).stdout)];
}

describe('how the project tells users to run the CLI', () => {
  test('the pattern catches what it must and lets --no-install through', () => {
    assert.deepEqual(npxFallow('run `npx fallow solve x`, or npx -y fallow check'), ['npx fallow', 'npx -y fallow']);
    assert.deepEqual(npxFallow('npx --no-install fallow solve; npx tsc -p .'), []);
  });

  test('no document, source or help text runs npx fallow', () => {
    const found: string[] = [];
    for (const file of [...DOCUMENTS, ...SOURCES]) for (const hit of npxFallow(readFileSync(path.join(ROOT, file), 'utf8'))) found.push(`${file}: ${hit}`);
    for (const text of helps()) for (const hit of npxFallow(text)) found.push(`fallow --help: ${hit}`);
    assert.deepEqual(found, []);
  });

  test('the format document is in the repository, and nothing sends users to ../shared/spec for it', () => {
    assert.ok(statSync(path.join(ROOT, 'docs', 'FORMAT.md')).size > 1000);
    const found: string[] = [];
    for (const file of [...DOCUMENTS, ...SOURCES]) if (/shared\/spec\//.test(readFileSync(path.join(ROOT, file), 'utf8'))) found.push(file);
    for (const text of helps()) if (/shared\/spec\//.test(text)) found.push('fallow --help');
    assert.deepEqual(found, []);
    assert.match(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), /\]\(docs\/FORMAT\.md\)|`docs\/FORMAT\.md`/);
  });

  test('the README says how to run the CLI from anywhere without the registry', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.match(readme, /^npm ci && npm link /m);
    assert.match(readme, /node dist\/src\/cli\/main\.js/);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.deepEqual(pkg.bin, { fallow: 'dist/src/cli/main.js' });
  });
});
