import { readFileSync } from 'node:fs';
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

const [file, topArg] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);
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
