import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const self = path.relative(root, fileURLToPath(import.meta.url));

/** A mocha skip in any of its spellings: this.skip(), it.skip, describe.skip, suite.skip(), xit(, xdescribe(... */
const SKIP = /\b(?:this|suite|ctx|context|it|test|describe|specify)\s*\.\s*skip\b|\bx(?:it|describe|context|specify)\s*\(/;

function sourcesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(relative);
    return /\.(?:ts|js|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

/**
 * A test that skips itself when something is missing passes in a run that never tested it. Every suite that needs
 * a service or a program fails instead, naming what to start or install (Redis, RabbitMQ, Chromium, PgBouncer).
 */
describe('no test skips itself', () => {
  it('finds no skip under tests/', () => {
    const files = sourcesUnder('tests').filter((file) => file !== self);
    expect(files.length).to.be.greaterThan(100);
    const skips = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (SKIP.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(skips).to.deep.equal([]);
  });
});
