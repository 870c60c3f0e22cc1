import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, projectViolations, violationsOf } from './import-graph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the dependency rule (DESIGN 2)', () => {
  it('holds for every source file: domain <- application <- adapters <- infrastructure, no frameworks inside', () => {
    expect(projectViolations(root)).to.deep.equal([]);
  });

  it('flags a domain file that imports a framework, a driver or an outer layer', () => {
    const source = [
      "import Koa from 'koa';",
      "import { MikroORM } from '@mikro-orm/core';",
      "import type { Logger } from 'pino';",
      "import { x } from '../../application/ports/clock.port.js';",
      "export { y } from '../../adapters/http/app.js';",
      "const z = await import('inversify');",
      "import { ok } from '../shared/domain-error.js';",
    ].join('\n');
    const flagged = violationsOf('domain/vacancy/vacancy.ts', source).map((v) => v.specifier);
    expect(flagged).to.deep.equal(['koa', '@mikro-orm/core', 'pino', '../../application/ports/clock.port.js', '../../adapters/http/app.js', 'inversify']);
  });

  it('flags an application file that imports ajv, pg or an adapter, and lets it import the domain', () => {
    const source = "import { Ajv } from 'ajv';\nimport pg from 'pg';\nimport { a } from '../../adapters/x.js';\nimport { b } from '../../domain/board/board.js';";
    expect(violationsOf('application/use-cases/x.use-case.ts', source).map((v) => v.specifier)).to.deep.equal(['ajv', 'pg', '../../adapters/x.js']);
  });

  it('flags an adapter that imports the composition root', () => {
    expect(violationsOf('adapters/http/app.ts', "import { c } from '../../infrastructure/container/build-container.js';")).to.have.length(1);
  });

  it("treats the repository's client package as a package: an adapter may use it, the domain may not", () => {
    const source = "import { mirrorToDirectory } from '../../../clients/typescript/src/node.js';";
    expect(violationsOf('adapters/cli/commands/sync.command.ts', source)).to.deep.equal([]);
    expect(violationsOf('domain/vacancy/x.ts', "import { a } from '../../clients/typescript/src/index.js';")).to.have.length(1);
  });

  it('reads multi-line and side-effect imports', () => {
    expect(importsOf("import {\n  a,\n  b,\n} from 'koa';\nimport 'reflect-metadata';")).to.deep.equal(['koa', 'reflect-metadata']);
  });
});
