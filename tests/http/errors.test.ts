import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConflictError } from '../../domain/shared/domain-error.js';
import { ApiClient } from '../support/api-client.js';
import { aTenant } from '../support/http-fixtures.js';
import { startTestServer } from '../support/http-test-server.js';

const domainDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../domain');

/**
 * Every class exported from a module under `dir` (domain/ unless a test says otherwise), in any folder
 * depth, that extends DomainError. The mapping table is imported the same way (dynamically), so that the
 * classes compare by identity: under mocha with tsx a static import of the test file can load a second
 * copy of a module.
 */
async function domainErrorClasses(DomainErrorBase: Function, dir = domainDir): Promise<Function[]> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const classes = new Set<Function>();
  for (const file of files) {
    const module: Record<string, unknown> = await import(pathToFileURL(path.join(dir, file)).href);
    for (const value of Object.values(module)) {
      if (typeof value === 'function' && value.prototype instanceof DomainErrorBase) classes.add(value);
    }
  }
  return [...classes];
}

describe('Error responses', () => {
  it('map every DomainError subclass exported from domain/ to a 4xx status, so none falls through to 500', async () => {
    const { DomainError: DomainErrorBase } = await import('../../domain/shared/domain-error.js');
    const { DOMAIN_ERROR_MAPPINGS: mappings, mappingOf: mappingOfClass } = await import('../../adapters/http/error-mapping.js');
    const classes = await domainErrorClasses(DomainErrorBase);
    expect(classes.map((c) => c.name)).to.include.members(['ValidationError', 'NotFoundError', 'ConflictError', 'InvalidCursorError', 'UnauthorizedError', 'ForbiddenError']);
    const unmapped = classes.filter((c) => !mappings.has(c as never)).map((c) => c.name);
    expect(unmapped, 'add them to DOMAIN_ERROR_MAPPINGS').to.deep.equal([]);
    for (const c of classes) expect(mappingOfClass(c)!.status, c.name).to.be.within(400, 499);
  });

  it('would notice a new error class without a mapping: the discovery finds one exported from a nested domain module', async () => {
    const { DomainError: DomainErrorBase } = await import('../../domain/shared/domain-error.js');
    const { DOMAIN_ERROR_MAPPINGS: mappings } = await import('../../adapters/http/error-mapping.js');
    // A stand-in for domain/ with one new module two folders down, importing DomainError as domain code
    // does; an ES module, as the project's are (outside the project, .ts would load as CommonJS).
    const fakeDomain = mkdtempSync(path.join(tmpdir(), 'domain-errors-'));
    try {
      writeFileSync(path.join(fakeDomain, 'package.json'), JSON.stringify({ type: 'module' }));
      mkdirSync(path.join(fakeDomain, 'billing', 'invoices'), { recursive: true });
      const base = pathToFileURL(path.join(domainDir, 'shared', 'domain-error.js')).href;
      writeFileSync(
        path.join(fakeDomain, 'billing', 'invoices', 'invoice-errors.ts'),
        [
          `import { DomainError, ConflictError } from ${JSON.stringify(base)};`,
          `export class InvoiceOverdueError extends DomainError { readonly code = 'invoice_overdue'; }`,
          `export class InvoiceLockedError extends ConflictError {}`,
          `export class NotAnError {}`,
          `class UnexportedError extends DomainError { readonly code = 'unexported'; }`,
          `export const unexported = new UnexportedError();`,
        ].join('\n'),
      );
      const classes = await domainErrorClasses(DomainErrorBase, fakeDomain);
      expect(classes.map((c) => c.name).sort()).to.deep.equal(['InvoiceLockedError', 'InvoiceOverdueError']);
      // The previous test's check: a subclass of a mapped class needs its own entry too.
      const unmapped = classes.filter((c) => !mappings.has(c as never)).map((c) => c.name);
      expect(unmapped.sort()).to.deep.equal(['InvoiceLockedError', 'InvoiceOverdueError']);
    } finally {
      rmSync(fakeDomain, { recursive: true, force: true });
    }
  });

  it('answer a domain error with its status, stable code and message as a problem document', async () => {
    const server = await startTestServer({
      overrides: { listVacancies: { execute: async () => Promise.reject(new ConflictError('The board has no column "X".')) } },
    });
    try {
      const tenant = await aTenant(server);
      const response = await tenant.api.get('/vacancies', { headers: { 'X-Request-Id': 'conflict-1' } });
      expect(response.status).to.equal(409);
      expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(response.body).to.deep.equal({
        type: 'urn:problem-type:integration-api:conflict',
        title: 'Conflict',
        status: 409,
        code: 'conflict',
        detail: 'The board has no column "X".',
        requestId: 'conflict-1',
      });
    } finally {
      await server.close();
    }
  });

  it('answer an unknown path with 404 not_found and a known path with another method with 405 and Allow', async () => {
    const server = await startTestServer();
    try {
      const tenant = await aTenant(server);
      const unknown = await tenant.api.get('/vacancy');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.code).to.equal('not_found');
      const outside = await new ApiClient(server.origin).get('/elsewhere');
      expect(outside.status).to.equal(404);
      const wrongMethod = await tenant.api.send('DELETE', '/vacancies', undefined);
      expect(wrongMethod.status).to.equal(405);
      expect(wrongMethod.body.code).to.equal('method_not_allowed');
      expect(wrongMethod.headers.get('allow')).to.equal('HEAD, GET');
      const getApplications = await tenant.api.get('/applications');
      expect(getApplications.status).to.equal(405);
      expect(getApplications.headers.get('allow')).to.equal('POST');
    } finally {
      await server.close();
    }
  });
});
