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

  it('keeps the feed out of the HTTP adapter: its schemas may be shared, nothing else', () => {
    const source = [
      "import { HttpProblem } from '../http/problem.js';",
      "import { readJsonBody } from '../http/json-body.js';",
      "import { applicationRequestSchema } from '../http/schemas/application-request.schema.js';",
      "import { isStorableText } from '../json/storable-text.js';",
      "import { describeProblems } from './event-problems.js';",
      "import type Koa from 'koa';",
      "import { Ajv } from 'ajv';",
    ].join('\n');
    expect(violationsOf('adapters/feed/platform-event-parser.ts', source).map((v) => v.specifier)).to.deep.equal([
      '../http/problem.js',
      '../http/json-body.js',
      'koa',
    ]);
    expect(violationsOf('adapters/feed/schemas/x.schema.ts', "import { a } from '../../http/storable-text.js';")).to.have.length(1);
    expect(violationsOf('adapters/feed/schemas/x.schema.ts', "import { a } from '../../http/schemas/common.schema.js';")).to.deep.equal([]);
    // The HTTP adapter itself may use the shared folder and Koa.
    expect(violationsOf('adapters/http/json-body.ts', "import Koa from 'koa';\nimport { a } from '../json/json-text.js';")).to.deep.equal([]);
  });

  it('keeps adapters/json free of every transport: no other adapter, no Koa, no HTTP module', () => {
    const source = [
      "import type { Context } from 'koa';",
      "import { Router } from '@koa/router';",
      "import { createServer } from 'node:http';",
      "import { validationProblem } from '../http/problem.js';",
      "import { EVENT_MAX_BYTES } from '../feed/feed-limits.js';",
      "import { Ajv } from 'ajv';",
      "import type { JsonProblem } from './json-problem.js';",
      "import { pointerToken } from '../../domain/shared/domain-error.js';",
    ].join('\n');
    expect(violationsOf('adapters/json/x.ts', source).map((v) => v.specifier)).to.deep.equal([
      'koa',
      '@koa/router',
      'node:http',
      '../http/problem.js',
      '../feed/feed-limits.js',
    ]);
  });

  it('keeps the management API apart: it may build on the public transport, which never imports it, and it calls use cases only', () => {
    const source = [
      "import { readJsonBody } from '../../http/json-body.js';",
      "import { problemsOfSchemaErrors } from '../../json/schema-problems.js';",
      "import { isoTimestamp } from '../../presenters/timestamp.js';",
      "import type { RollKey } from '../../../application/use-cases/roll-key.use-case.js';",
      "import { SERVICE_KEY_REPOSITORY } from '../../../application/ports/service-key-repository.port.js';",
      "import { PgServiceKeyRepository } from '../../persistence/postgres/pg-service-key-repository.js';",
      "import { keyCommand } from '../../cli/commands/key.command.js';",
      "import { Router } from '@koa/router';",
    ].join('\n');
    expect(violationsOf('adapters/management/routes/key-routes.ts', source).map((v) => v.specifier)).to.deep.equal([
      '../../../application/ports/service-key-repository.port.js',
      '../../persistence/postgres/pg-service-key-repository.js',
      '../../cli/commands/key.command.js',
    ]);
    expect(violationsOf('adapters/http/create-http-app.ts', "import { createManagementApp } from '../management/create-management-app.js';")).to.have.length(1);
    expect(violationsOf('adapters/http/openapi/x.ts', "import { a } from '../../management/schemas/management-request.schema.js';")).to.have.length(1);
  });

  it('keeps the presenters pure presentation: no store, no transport, no driving adapter, no composition root', () => {
    const source = [
      "import { readVacancyRow } from '../persistence/postgres/point-reads.js';",
      "import { HttpProblem } from '../http/problem.js';",
      "import { syncCommand } from '../cli/commands/sync.command.js';",
      "import { EVENT_MAX_BYTES } from '../feed/feed-limits.js';",
      "import { keyRoutes } from '../management/routes/key-routes.js';",
      "import { buildContainer } from '../../infrastructure/container/build-container.js';",
      "import type { Context } from 'koa';",
      "import pg from 'pg';",
      "import type { EntityManager } from '@mikro-orm/postgresql';",
      "import type { VacancyView } from '../../application/ports/vacancy-repository.port.js';",
      "import type { VacancySnapshot } from '../../domain/vacancy/vacancy.js';",
      "import { isoTimestamp } from './timestamp.js';",
      "import { jsonText } from '../json/json-text.js';",
    ].join('\n');
    expect(violationsOf('adapters/presenters/vacancy.presenter.ts', source).map((v) => v.specifier)).to.have.members([
      '../persistence/postgres/point-reads.js',
      '../http/problem.js',
      '../cli/commands/sync.command.js',
      '../feed/feed-limits.js',
      '../management/routes/key-routes.js',
      '../../infrastructure/container/build-container.js',
      'koa',
      'pg',
      '@mikro-orm/postgresql',
    ]);
  });

  it('keeps the presenters out of the domain and the application', () => {
    expect(violationsOf('domain/vacancy/vacancy.ts', "import { renderVacancy } from '../../adapters/presenters/vacancy.presenter.js';")).to.have.length(1);
    expect(violationsOf('application/use-cases/check-renderings.use-case.ts', "import { renderVacancy } from '../../adapters/presenters/vacancy.presenter.js';")).to.have.length(1);
    expect(violationsOf('application/ports/x.port.ts', "import type { a } from '../../adapters/presenters/timestamp.js';")).to.have.length(1);
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
