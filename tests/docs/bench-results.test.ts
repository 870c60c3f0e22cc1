import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RESULTS = 'bench/results';
/** A result file's name as the benches write it: <date>.json (npm run bench), feed-<date>.json (npm run bench:feed). */
const RESULT_NAME = /(?:feed-)?\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.json/g;
const README_MAX_LINES = 300;

function markdownFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

/** The documents that may cite a run: the bench's README, the project's README, docs/ and its ADRs. */
function citingDocuments(): string[] {
  return ['bench/README.md', 'README.md', ...markdownFiles('docs')];
}

/** The result files in the tree: those committed (a run just made stays out of it until it is one of record). */
function committedResults(): string[] {
  const listed = execFileSync('git', ['ls-files', '--', RESULTS], { cwd: root, encoding: 'utf8' });
  return listed.split('\n').filter((file) => file.endsWith('.json')).map((file) => path.basename(file));
}

function citedResults(): Map<string, string[]> {
  const cited = new Map<string, string[]>();
  for (const document of citingDocuments()) {
    for (const name of readFileSync(path.join(root, document), 'utf8').match(RESULT_NAME) ?? []) {
      cited.set(name, [...(cited.get(name) ?? []), document]);
    }
  }
  return cited;
}

describe('bench/README.md and bench/results/', () => {
  it(`keeps bench/README.md to at most ${README_MAX_LINES} lines (history belongs to git)`, () => {
    const lines = readFileSync(path.join(root, 'bench/README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines, 'lines of bench/README.md').to.be.at.most(README_MAX_LINES);
  });

  it('keeps only the result files of record: each one in bench/results/ is cited by a document', () => {
    const cited = citedResults();
    const uncited = committedResults().filter((name) => !cited.has(name));
    expect(uncited, 'result files no document cites (delete them, or cite them in bench/README.md)').to.deep.equal([]);
  });

  it('cites no result file that is not committed in bench/results/', () => {
    const present = new Set(committedResults());
    const missing = [...citedResults()].filter(([name]) => !present.has(name)).map(([name, documents]) => `${name} (${documents.join(', ')})`);
    expect(missing, 'result files cited but absent').to.deep.equal([]);
  });
});
