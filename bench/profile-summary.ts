import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { codeArea as area } from './code-area.js';

/**
 * Summarises a V8 CPU profile (node --cpu-prof, or `npm run bench -- --cpu-prof DIR`): self time by
 * function and by package or project folder, so that a profile can be read without a browser.
 * Usage: tsx bench/profile-summary.ts FILE.cpuprofile [top=25]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const USAGE = `Usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [TOP]

Summarises a V8 CPU profile (node --cpu-prof, or the benches' --cpu-prof DIR): self time by package or project
folder, and the TOP functions (default 25) by self time. Note that a profile samples wall-clock time on the main
thread: a blocking system call (a socket's write) counts as long as it blocks.
`;
const { file, top } = (() => {
  try {
    const { values, positionals } = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
    if (values.help === true) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    const [path, topArg, ...rest] = positionals;
    if (path === undefined || rest.length > 0) throw new Error('one profile file, and at most the number of functions to show');
    const count = Number(topArg ?? 25);
    if (!Number.isInteger(count) || count < 1) throw new Error(`TOP is a whole number of functions, at least 1 (got ${JSON.stringify(topArg)})`);
    return { file: path, top: count };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
})();
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id) as ProfileNode;
  const name = `${callFrame.functionName || '(anonymous)'} ${area(callFrame.url)}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  byArea.set(area(callFrame.url), (byArea.get(area(callFrame.url)) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (of ${(total / 1e6).toFixed(1)} s sampled)\n`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
  }
};
print('self time by package or folder', byArea);
print('self time by function', byFunction);
