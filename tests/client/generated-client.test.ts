import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedClientFiles, staleClientFiles } from '../../scripts/generate-client.js';
import { importsOf } from '../architecture/import-graph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const clientSrc = path.join(root, 'clients/typescript/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
  );
}

describe('the TypeScript client package (clients/typescript)', function () {
  this.timeout(60_000);

  it('holds the OpenAPI document and the types generated from it as the service code gives them now (else: npm run generate:client)', async () => {
    expect(await staleClientFiles()).to.deep.equal([]);
  });

  it('generates its types from the document, so a schema change reaches the types', async () => {
    const files = await generatedClientFiles();
    const types = Object.entries(files).find(([file]) => file.endsWith('openapi-types.ts'))![1];
    const document = JSON.parse(Object.entries(files).find(([file]) => file.endsWith('openapi.json'))![1]);
    for (const name of Object.keys(document.components.schemas)) expect(types, name).to.contain(`${name}: {`);
    expect(types).to.contain('status: "open" | "paused" | "closed" | "archived" | "draft";');
    expect(types).to.contain('referral: components["schemas"]["Referral"] | null;');
  });

  it('is a package of its own: it imports nothing of the service, only its own files and node: modules', () => {
    const outside: string[] = [];
    for (const file of sourceFiles(clientSrc)) {
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        const own = specifier.startsWith('.') && path.resolve(path.dirname(file), specifier).startsWith(clientSrc);
        if (!own && !specifier.startsWith('node:')) outside.push(`${path.relative(root, file)}: ${specifier}`);
      }
    }
    expect(outside).to.deep.equal([]);
    const isomorphic = sourceFiles(clientSrc).filter((f) => !f.includes(`${path.sep}node${path.sep}`) && !f.endsWith('node.ts'));
    for (const file of isomorphic) expect(importsOf(readFileSync(file, 'utf8')).filter((s) => s.startsWith('node:')), path.relative(root, file)).to.deep.equal([]);
  });
});
