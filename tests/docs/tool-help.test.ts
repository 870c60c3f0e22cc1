import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Folders of the project's own tools run with tsx (npm run bench, generate:*, the probes, the ceilings). */
const TOOL_FOLDERS = ['bench', 'bench/ceilings', 'scripts'];
/** Folders whose modules may import a tool's module (tests aside: a test may import a generator's functions). */
const SOURCE_FOLDERS = ['adapters', 'application', 'bench', 'clients', 'domain', 'infrastructure', 'scripts'];

function typeScriptFiles(folder: string, deep: boolean): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return deep && entry.name !== 'node_modules' && entry.name !== 'dist' ? typeScriptFiles(relative, true) : [];
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** The tools' files that no source module imports for its values: the ones run as commands or processes. */
function entryPoints(): string[] {
  const imported = new Set<string>();
  for (const file of SOURCE_FOLDERS.flatMap((folder) => typeScriptFiles(folder, true))) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(/^import (?!type )[^;]*?from '(\.{1,2}\/[^']+)\.js';/gms)) {
      imported.add(path.join(path.dirname(file), `${match[1]}.ts`));
    }
  }
  return TOOL_FOLDERS.flatMap((folder) => typeScriptFiles(folder, false)).filter((file) => !imported.has(file));
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A tool that ignored --help would start its work: cut short, and the test names it.
    execFile(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, timeout: 30_000, env: { ...process.env, DATABASE_URL: '' } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe('the project\'s tools (bench/, bench/ceilings/, scripts/) answer --help', function () {
  this.timeout(120_000);
  const tools = entryPoints();

  it('finds the tools that are run as commands (the benches, the probes, the ceilings, the generators)', () => {
    expect(tools).to.include.members([
      'bench/run-bench.ts',
      'bench/feed-bench.ts',
      'bench/profile-summary.ts',
      'bench/feed-sql-probe.ts',
      'bench/ceilings/feed-ceiling.ts',
      'bench/ceilings/bare-ceiling-server.ts',
      'scripts/generate-client.ts',
    ]);
    // Modules the tools import are no tools: each checked alone (include.members passes when either is missing).
    for (const module of ['bench/bench-options.ts', 'bench/ceilings/feed-ceiling-sql.ts']) expect(tools).not.to.include(module);
  });

  it('each prints its usage on --help and exits 0, doing nothing else', async () => {
    const answers = await Promise.all(tools.map(async (tool) => ({ tool, ...(await run(tool, ['--help'])) })));
    for (const { tool, code, stdout, stderr } of answers) {
      expect(code, `${tool} --help: exit code (stderr: ${stderr.slice(0, 300)})`).to.equal(0);
      expect(stdout, `${tool} --help`).to.match(/^Usage: /);
    }
  });

  it('each refuses an option it does not know, before doing anything, with exit 2 or 1 and a message', async () => {
    const answers = await Promise.all(tools.map(async (tool) => ({ tool, ...(await run(tool, ['--no-such-option'])) })));
    for (const { tool, code, stdout, stderr } of answers) {
      expect(code, `${tool} --no-such-option: exit code (stdout: ${stdout.slice(0, 200)})`).to.be.oneOf([1, 2]);
      expect(stderr, `${tool} --no-such-option`).to.match(/no-such-option|unknown option/i);
    }
  });
});
