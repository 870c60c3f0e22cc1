import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Folders of the project's own tools run with tsx (npm run bench, generate:*, the probes, the ceilings, the examples). */
const TOOL_FOLDERS = ['bench', 'bench/ceilings', 'scripts', 'examples/career-portal', 'examples/service-keys'];
const EXAMPLES = ['examples/career-portal/main.ts', 'examples/service-keys/main.ts'];
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

/**
 * Each tool's answers, a few processes at a time: all at once, on a loaded 2-core machine, a tool's mere start
 * outlasted the timeout that tells a tool that ignores --help (and starts its work).
 */
async function answersOf(tools: readonly string[], args: string[]) {
  const answers: { tool: string; code: number | null; stdout: string; stderr: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tools.length) {
      const tool = tools[next++]!;
      answers.push({ tool, ...(await run(tool, args)) });
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return answers;
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A tool that ignored --help would start its work: cut short, and the test names it.
    execFile(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, timeout: 30_000, env: { ...process.env, DATABASE_URL: '' } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

/** The environment variables a program reads: process.env.NAME, or a helper called with the name ('NAME'). */
function variablesReadBy(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const names = [...text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)|\(\s*'([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1] ?? match[2]!);
  return [...new Set(names)].sort();
}

describe('the project\'s tools (bench/, bench/ceilings/, scripts/, the examples\' programs) answer --help', function () {
  this.timeout(600_000);
  const tools = entryPoints();

  it('finds the tools that are run as commands (the benches, the probes, the ceilings, the generators)', () => {
    expect(tools).to.include.members([
      'bench/run-bench.ts',
      'bench/feed-bench.ts',
      'bench/profile-summary.ts',
      'bench/ceilings/feed-ceiling.ts',
      'bench/ceilings/bare-ceiling-server.ts',
      'scripts/generate-client.ts',
      ...EXAMPLES,
    ]);
    // Modules the tools import are no tools: each checked alone (include.members passes when either is missing).
    for (const module of ['bench/bench-options.ts', 'bench/ceilings/feed-ceiling-apply.ts']) expect(tools).not.to.include(module);
  });

  it('each prints its usage on --help and exits 0, doing nothing else', async () => {
    const answers = await answersOf(tools, ['--help']);
    for (const { tool, code, stdout, stderr } of answers) {
      expect(code, `${tool} --help: exit code (stderr: ${stderr.slice(0, 300)})`).to.equal(0);
      expect(stdout, `${tool} --help`).to.match(/^Usage: /);
    }
  });

  it('the README names every environment variable of each example\'s program, in that example\'s section', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const example of EXAMPLES) {
      const folder = path.dirname(example);
      const section = readme.split(/^## /m).find((part) => part.includes(`\`${folder}\` is`));
      expect(section, `a README section introduces ${folder}`).to.be.a('string');
      const variables = variablesReadBy(example);
      expect(variables, example).to.include(folder.endsWith('portal') ? 'PORTAL_TRUST_PROXY' : 'SERVICE_KEYS_PORT');
      for (const name of variables) expect(section, `${name} of ${example}`).to.include(`\`${name}\``);
    }
  });

  it('each refuses an option it does not know, before doing anything, with exit 2 or 1 and a message', async () => {
    const answers = await answersOf(tools, ['--no-such-option']);
    for (const { tool, code, stdout, stderr } of answers) {
      expect(code, `${tool} --no-such-option: exit code (stdout: ${stdout.slice(0, 200)})`).to.be.oneOf([1, 2]);
      expect(stderr, `${tool} --no-such-option`).to.match(/no-such-option|unknown option/i);
    }
  });
});
