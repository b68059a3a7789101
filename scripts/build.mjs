#!/usr/bin/env node
// npm run build: compiles the TypeScript tree into dist/, only when the sources changed, never leaving dist/
// missing or half-deleted (a CLI, API or test run may be using it meanwhile).
//
//   1. fingerprint: a SHA-1 of every compiled source (tsconfig.json's include dirs) with tsconfig.json,
//      package-lock.json and this script; equal to dist/.build-stamp -> "up to date", done (~0.1 s);
//   2. tsc --incremental into the staging tree .tmp/build/out (kept between builds, so a rebuild recompiles
//      only what changed);
//   3. each output whose bytes differ is copied into dist/ beside its old self and renamed over it (a rename
//      is atomic: dist/src/cli/main.js always exists), outputs of deleted sources are removed, then the stamp is
//      written last (an interrupted build is redone next time).
// --force rebuilds from scratch (drops the staging tree). One build at a time per checkout (.tmp/build/lock).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const STAGE = path.join(ROOT, '.tmp', 'build');
const OUT = path.join(STAGE, 'out');
const BUILD_INFO = path.join(STAGE, 'tsbuildinfo');
const LOCK = path.join(STAGE, 'lock');
const STAMP = path.join(DIST, '.build-stamp');
const SOURCE_DIRS = ['src', 'test', 'bench', 'harness', 'migrations', 'examples']; // tsconfig.json's include
const EXTRA_INPUTS = ['tsconfig.json', 'package-lock.json', 'scripts/build.mjs'];
const EXECUTABLES = ['src/cli/main.js']; // package.json "bin"

const say = (msg) => process.stdout.write(`build: ${msg}\n`);
/** A failure with the one line that says what to do; main() prints it and exits 1 (after releasing the lock). */
class BuildError extends Error {}
const fail = (msg) => {
  throw new BuildError(msg);
};

/** Every .ts under the source dirs (relative, sorted), skipping .d.ts (tsc emits nothing for them). */
function sources() {
  const found = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(child);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) found.push(child);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(ROOT, dir))) walk(dir);
  return found.sort();
}

function fingerprint(files) {
  const h = createHash('sha1');
  for (const rel of [...files, ...EXTRA_INPUTS]) {
    h.update(rel).update('\0');
    const file = path.join(ROOT, rel);
    if (fs.existsSync(file)) h.update(fs.readFileSync(file));
    h.update('\0');
  }
  return h.digest('hex');
}

/** The files tsc emits for these sources (rootDir "."): X.ts -> X.js and X.js.map. */
function expectedOutputs(files) {
  return files.flatMap((rel) => {
    const js = rel.replace(/\.ts$/, '.js');
    return [js, `${js}.map`];
  });
}

function readStamp() {
  try {
    return fs.readFileSync(STAMP, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Takes .tmp/build/lock (a directory: mkdir is atomic), waiting for a live holder, taking over a dead one's. */
function lock() {
  fs.mkdirSync(STAGE, { recursive: true });
  const until = Date.now() + 10 * 60_000;
  for (let announced = false; ; ) {
    try {
      fs.mkdirSync(LOCK);
      fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      return () => fs.rmSync(LOCK, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    const holder = lockHolder();
    if (holder === undefined || (holder > 0 && !alive(holder))) {
      fs.rmSync(LOCK, { recursive: true, force: true }); // its builder is gone (killed mid-build)
      continue;
    }
    if (Date.now() > until) fail(`another build (pid ${holder}) has held ${path.relative(ROOT, LOCK)} for 10 minutes; stop it or delete that directory`);
    if (!announced) say(`waiting for another build (pid ${holder || 'starting'}) to finish`);
    announced = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

/** The lock holder's pid; 0 while a holder has just made the lock and not yet written it; undefined: a dead lock. */
function lockHolder() {
  try {
    const pid = Number(fs.readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    if (pid > 0) return pid;
  } catch {
    // no pid file (yet)
  }
  try {
    return Date.now() - fs.statSync(LOCK).mtimeMs < 5000 ? 0 : undefined;
  } catch {
    return undefined; // released meanwhile
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function compile() {
  const tsc = createRequire(path.join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', 'tsconfig.json', '--outDir', path.relative(ROOT, OUT), '--incremental', '--tsBuildInfoFile', path.relative(ROOT, BUILD_INFO)];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) fail(`tsc failed${r.signal ? ` (${r.signal})` : ''}: fix the errors above and run it again; dist/ is unchanged`);
}

function sameBytes(a, b) {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.size === sb.size && fs.readFileSync(a).equals(fs.readFileSync(b));
  } catch {
    return false;
  }
}

/** Files under dir, relative to it. */
function listFiles(dir, rel = '') {
  if (!fs.existsSync(path.join(dir, rel))) return [];
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(dir, child) : [child];
  });
}

function removeEmptyDirs(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeEmptyDirs(path.join(dir, e.name));
  if (dir !== DIST && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

/** Brings dist/ to the staged outputs file by file: each replacement is a rename, so no file is ever missing. */
function publish(outputs) {
  let changed = 0;
  for (const rel of outputs) {
    const from = path.join(OUT, rel);
    const to = path.join(DIST, rel);
    const mode = EXECUTABLES.includes(rel) ? 0o755 : 0o644;
    if (sameBytes(from, to)) {
      if ((fs.statSync(to).mode & 0o777) !== mode) fs.chmodSync(to, mode);
      continue;
    }
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const tmp = `${to}.${process.pid}.tmp`;
    fs.copyFileSync(from, tmp);
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, to);
    changed++;
  }
  const keep = new Set([...outputs, path.basename(STAMP)]);
  const stale = listFiles(DIST).filter((rel) => !keep.has(rel));
  for (const rel of stale) fs.rmSync(path.join(DIST, rel), { force: true });
  removeEmptyDirs(DIST);
  return { changed, removed: stale.length };
}

function main() {
  const force = process.argv.includes('--force');
  const files = sources();
  if (files.length === 0) fail(`no TypeScript sources under ${SOURCE_DIRS.join(', ')} (run it from a Fallow checkout)`);
  const stamp = fingerprint(files);
  if (!force && readStamp() === stamp) return say('dist/ is up to date with the sources');
  const unlock = lock();
  try {
    const started = Date.now();
    // Another build may have finished while we waited for the lock.
    const current = fingerprint(files);
    if (!force && readStamp() === current) return say('dist/ is up to date with the sources');
    const outputs = expectedOutputs(files);
    if (force) fs.rmSync(OUT, { recursive: true, force: true });
    say(fs.existsSync(BUILD_INFO) && !force ? 'sources changed: compiling what changed (tsc --incremental)' : 'compiling (tsc)');
    compile();
    if (outputs.some((rel) => !fs.existsSync(path.join(OUT, rel)))) {
      // the staging tree lost files the build info believes are there (deleted by hand): recompile everything
      fs.rmSync(OUT, { recursive: true, force: true });
      fs.rmSync(BUILD_INFO, { force: true });
      compile();
    }
    const missing = outputs.find((rel) => !fs.existsSync(path.join(OUT, rel)));
    if (missing) fail(`tsc emitted no ${missing}; check tsconfig.json (rootDir ".", sourceMap on)`);
    // outputs of deleted sources go from the staging tree too, so they are never published again
    const wanted = new Set(outputs);
    for (const rel of listFiles(OUT)) if (!wanted.has(rel)) fs.rmSync(path.join(OUT, rel), { force: true });
    const { changed, removed } = publish(outputs);
    const tmp = `${STAMP}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${current}\n`);
    fs.renameSync(tmp, STAMP);
    say(`dist/ updated in ${((Date.now() - started) / 1000).toFixed(1)} s (${changed} files written, ${removed} removed)`);
  } finally {
    unlock();
  }
}

try {
  main();
} catch (e) {
  if (!(e instanceof BuildError)) throw e;
  process.stderr.write(`build: ${e.message}\n`);
  process.exit(1);
}
