import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { EMAIL_ADDRESS_PATTERN } from '../../domain/candidate/email-address.js';
import * as L from '../../domain/inbound-application/application-limits.js';
import { PAGE_LIMIT_MAX } from '../../domain/paging/cursor.js';
import { aFullApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

describe('GET /openapi.json', () => {
  let server: TestServer;
  let tenant: Tenant;
  let document: any;
  let conforms: (schemaName: string, value: unknown) => string[];

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    const response = await tenant.api.get('/openapi.json', { key: undefined });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    document = response.body;
    // The published schemas, compiled as OpenAPI 3.1 reads them (JSON Schema 2020-12).
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: document.components });
    conforms = (schemaName, value) => {
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${schemaName}`)!;
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
  });
  after(() => server.close());

  it('is an OpenAPI 3.1 document with this deployment as server and the X-API-Key header as security', () => {
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers).to.deep.equal([{ url: 'https://kz.example.test/api', description: 'Regional deployment kz' }]);
    expect(document.components.securitySchemes.apiKey).to.include({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(document.security).to.deep.equal([{ apiKey: [] }]);
    expect(Object.keys(document.paths)).to.have.members([
      '/integration/v1/vacancies', '/integration/v1/candidates', '/integration/v1/applications', '/integration/v1/openapi.json',
    ]);
    expect(Object.keys(document.components.schemas)).to.include.members([
      'Vacancy', 'Candidate', 'VacancyPage', 'CandidatePage', 'ApplicationRequest', 'ApplicationCreated', 'ApplicationDuplicate',
      'ValidationProblem', 'InvalidCursorProblem', 'UnauthorizedProblem', 'ForbiddenProblem', 'NotFoundProblem', 'RateLimitedProblem',
    ]);
  });

  it('publishes the bounds that validation enforces, taken from the domain constants', () => {
    const request = document.components.schemas.ApplicationRequest;
    expect(request.required).to.have.members(['externalId', 'vacancyId', 'candidate']);
    expect(request.properties.externalId).to.include({ minLength: L.EXTERNAL_ID_MIN_LENGTH, maxLength: L.EXTERNAL_ID_MAX_LENGTH });
    expect(request.properties.candidate.properties.email).to.include({ pattern: EMAIL_ADDRESS_PATTERN, maxLength: L.EMAIL_MAX_LENGTH });
    expect(request.properties.referral.properties.email).to.include({ pattern: EMAIL_ADDRESS_PATTERN, maxLength: L.EMAIL_MAX_LENGTH });
    expect(request.properties.candidate.properties.email, 'format email admits addresses the service refuses').to.not.have.property('format');
    expect(request.properties.resume.properties.experience.items.properties.description).to.include({ maxLength: L.EXPERIENCE_DESCRIPTION_MAX_LENGTH, default: '' });
    const limit = document.paths['/integration/v1/vacancies'].get.parameters.find((p: any) => p.name === 'limit');
    expect(limit.schema).to.include({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: 100 });
  });

  it('describes the responses the API really sends', async () => {
    const vacancy = await tenant.addVacancy({ publishedAt: new Date('2026-10-01T00:00:00.000Z') });
    await tenant.addVacancy({ city: null, salaryFrom: null, salaryTo: null, workFormats: [] });
    const created = await tenant.api.post('/applications', aFullApplicationBody(vacancy.id));
    const duplicate = await tenant.api.post('/applications', aFullApplicationBody(vacancy.id, { externalId: 'dup' }));
    const again = await tenant.api.post('/applications', aFullApplicationBody(vacancy.id, { externalId: 'dup' }));
    await tenant.addManualCandidate(vacancy.id);
    const invalid = await tenant.api.post('/applications', { candidate: {} });
    const cursorProblem = await tenant.api.get('/vacancies?cursor=x');

    expect(conforms('VacancyPage', (await tenant.api.get('/vacancies?limit=1')).body)).to.deep.equal([]);
    expect(conforms('CandidatePage', (await tenant.api.get('/candidates')).body)).to.deep.equal([]);
    expect(conforms('ApplicationCreated', created.body)).to.deep.equal([]);
    expect(conforms('ApplicationCreated', duplicate.body)).to.deep.equal([]);
    expect(conforms('ApplicationDuplicate', again.body)).to.deep.equal([]);
    expect(conforms('ApplicationDuplicate', created.body), 'the shapes tell each other apart').to.not.deep.equal([]);
    expect(conforms('ValidationProblem', invalid.body)).to.deep.equal([]);
    expect(conforms('InvalidCursorProblem', cursorProblem.body)).to.deep.equal([]);
    expect(conforms('UnauthorizedProblem', (await tenant.api.get('/vacancies', { key: undefined })).body)).to.deep.equal([]);
    expect(conforms('UnauthorizedProblem', invalid.body), 'each status has its own problem').to.not.deep.equal([]);
  });
});
