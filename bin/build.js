// Compiles the service, the admin CLI and the client into dist/ (tsconfig.build.json), and keeps the
// compiled tree in step with the sources: `npm start` and the admin bin call ensureBuilt() so that a fresh
// clone (no dist/) or an edited checkout runs what its sources say. Plain JavaScript, so that nothing on
// the production path needs tsx.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const LOCK = join(ROOT, '.build.lock');
const SOURCE_DIRS = ['domain', 'application', 'adapters', 'infrastructure', 'clients/typescript/src'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json'];
const STALE = 'dist/ is missing or older than the sources';

/** Builds dist/ when it is missing or older than any source; waits for a build another process runs. */
export function ensureBuilt({ quiet = false } = {}) {
  if (isFresh()) return;
  withBuildLock(STALE, () => {
    if (!isFresh()) compile(STALE, quiet);
  });
}

/** `npm run build`: compiles whatever the state of dist/. */
export function build() {
  withBuildLock('npm run build writes dist/ and a lock file in the checkout', () => compile('npm run build'));
}

/**
 * dist/ is fresh when no source is newer than the newest one was just before its build, as the stamp
 * recorded it. Compared with that recorded time, never with the clock or the stamp's own mtime, so that a
 * source dated in the future (clock skew, an extracted archive) does not make every start build again; a
 * source saved during the build is newer than the recorded time, so the next start builds. Only "newer":
 * a copy that keeps mtimes coarser or resets them (tar, npm pack) still counts as fresh. The cost: while a
 * source is dated in the future, an edit to another one is not seen until the clock passes that date.
 */
function isFresh() {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(STAMP, 'utf8')).newestSourceMs;
  } catch {
    return false;
  }
  return typeof recorded === 'number' && newestSource() <= recorded;
}

function newestSource() {
  let newest = 0;
  const visit = (path) => {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return;
    if (info.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules') visit(join(path, entry));
    } else if (path.endsWith('.ts') || path.endsWith('.json')) {
      newest = Math.max(newest, info.mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) visit(join(ROOT, dir));
  for (const file of CONFIG_FILES) visit(join(ROOT, file));
  return newest;
}

function compile(reason, quiet = false) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    fail(`${reason}, and TypeScript is not installed to build it: run \`npm ci\` (with dev dependencies), then \`npm run build\`.`);
  }
  if (!quiet) process.stderr.write(`building dist/ (${reason})...\n`);
  // Taken before tsc runs: a source saved during the build is newer, so the next start builds again.
  const newestSourceMs = newestSource();
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) fail(`the build failed (tsc exited ${result.status ?? result.signal}); see the errors above.`);
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify({ newestSourceMs })}\n`);
  if (!quiet) process.stderr.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** One build at a time in a checkout (two `npm start`s, or the service and the admin CLI, at once). */
function withBuildLock(reason, work) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      writeFileSync(LOCK, String(process.pid));
      break;
    } catch (error) {
      if (error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS') {
        fail(`${reason}, and this checkout is not writable (${error.code} on ${LOCK}), so it cannot be built here: run \`npm run build\` where it is writable and bring dist/ along.`);
      }
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(LOCK, { encoding: 'utf8', flag: 'r' }).trim() || '0');
      if (holder > 0 && !alive(holder)) {
        unlinkSync(LOCK);
        continue;
      }
      if (Date.now() > deadline) fail(`waited 180 s for the build run by process ${holder} (${LOCK}).`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    work();
  } finally {
    if (existsSync(LOCK)) unlinkSync(LOCK);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function fail(message) {
  process.stderr.write(`integration-api: ${message}\n`);
  process.exit(1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write('usage: npm run build\n\nCompiles the service, the admin CLI and the client (tsc -p tsconfig.build.json) into dist/, with source maps.\n');
  } else {
    build();
  }
}
