import { expect } from 'chai';
import { ApiError, IntegrationClient, MemorySyncStateStore, MemorySyncTarget, SyncAccessError, type Candidate, type Vacancy } from '../../clients/typescript/src/index.js';
import { aFullApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';
import { OpenApiConformance } from '../support/openapi-conformance.js';

describe('IntegrationClient against the service', () => {
  let server: TestServer;
  let tenant: Tenant;
  let conformance: OpenApiConformance;
  let client: IntegrationClient;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    conformance = new OpenApiConformance(await (await fetch(`${server.baseUrl}/openapi.json`)).json());
    client = new IntegrationClient({ baseUrl: `${server.origin}/api`, apiKey: tenant.key, fetch: conformance.wrap(fetch) });
  });

  afterEach(async () => {
    expect(conformance.violations).to.deep.equal([]);
    await server.close();
  });

  it('lists a page with its watermark, request id and remaining budget, and takes since as a Date', async () => {
    const open = await tenant.addVacancy({ title: 'Аналитик данных' });
    await tenant.addVacancy({ status: 'archived' });
    const page = await client.listVacancies({ limit: 10 }, { requestId: 'portal-42' });
    expect(page.items.map((v: Vacancy) => v.title)).to.deep.equal(['Аналитик данных']);
    expect(page.nextCursor).to.equal(null);
    expect(page.watermark).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(page.requestId).to.equal('portal-42');
    expect(page.rateLimit!.remaining).to.be.a('number');
    expect((await client.listVacancies({ status: 'all' })).items).to.have.length(2);
    expect((await client.listVacancies({ since: new Date(open.updatedAt.getTime()) })).items).to.deep.equal([]);
    expect((await client.listVacancies({ since: null })).items).to.have.length(1);
  });

  it('walks every page with the async iterators', async () => {
    const vacancy = await tenant.addVacancy();
    for (let i = 0; i < 7; i++) await tenant.addManualCandidate(vacancy.id, `Кандидат ${i}`);
    const pages: number[] = [];
    for await (const page of client.candidatePages({ limit: 3 })) pages.push(page.items.length);
    expect(pages).to.deep.equal([3, 3, 1]);
    const names: string[] = [];
    for await (const candidate of client.candidates({ limit: 2, vacancyId: vacancy.id })) names.push((candidate as Candidate).candidate.name);
    expect(names).to.deep.equal([0, 1, 2, 3, 4, 5, 6].map((i) => `Кандидат ${i}`));
  });

  it('submits an application once per externalId, telling a repeat and a repeat with another body', async () => {
    const vacancy = await tenant.addVacancy();
    const body = aFullApplicationBody(vacancy.id);
    const created = await client.submitApplication(body);
    expect(created).to.include({ status: 'created', replayed: false, bodyDiffers: false, attempts: 1 });
    const again = await client.submitApplication(body);
    expect(again).to.include({ id: created.id, status: 'duplicate', replayed: true, bodyDiffers: false });
    const changed = await client.submitApplication({ ...body, coverLetter: 'Другое письмо' });
    expect(changed).to.include({ id: created.id, status: 'duplicate', bodyDiffers: true });
    const [listed] = (await client.listCandidates({ vacancyId: vacancy.id })).items;
    expect(listed!.referral).to.deep.include({ name: 'Дилноза Юсупова' });
  });

  it('throws ApiError with the typed problem, status, code and request id', async () => {
    const failure = await client.submitApplication({ externalId: '', vacancyId: 'v', candidate: { name: 'Алишер', email: 'нет' } }).catch((e: unknown) => e);
    expect(failure).to.be.instanceOf(ApiError);
    const error = failure as ApiError;
    expect(error).to.include({ status: 400, code: 'validation_failed', attempts: 1 });
    expect(error.requestId).to.be.a('string');
    expect(error.problem!.requestId).to.equal(error.requestId);
    if (error.problem?.code !== 'validation_failed') throw new Error('narrowed by code');
    expect(error.problem.errors.map((e) => e.pointer)).to.deep.equal(['/externalId', '/candidate/email']);

    const cursor = (await client.listVacancies({ cursor: 'bm9wZQ' }).catch((e: unknown) => e)) as ApiError;
    expect(cursor).to.include({ status: 400, code: 'invalid_cursor' });
    const outsider = new IntegrationClient({ baseUrl: server.baseUrl, apiKey: 'ik_nobodynobody_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', fetch: conformance.wrap(fetch) });
    expect(await outsider.listCandidates().catch((e: ApiError) => [e.status, e.code])).to.deep.equal([401, 'unauthorized']);
    const readOnly = new IntegrationClient({ baseUrl: server.baseUrl, apiKey: (await tenant.issueKey(['vacancies:read'])).key, fetch: conformance.wrap(fetch) });
    const forbidden = (await readOnly.listCandidates().catch((e: unknown) => e)) as ApiError;
    expect(forbidden).to.include({ status: 403, code: 'forbidden' });
    expect(forbidden.message).to.contain('candidates:read');
  });

  it('sync() checks the key may read every resource it mirrors before it applies anything (SyncAccessError)', async () => {
    const vacancy = await tenant.addVacancy();
    await tenant.addManualCandidate(vacancy.id);
    const narrow = await tenant.issueKey(['vacancies:read']);
    const api = new IntegrationClient({ baseUrl: `${server.origin}/api`, apiKey: narrow.key });
    const state = new MemorySyncStateStore();
    const vacancies = new MemorySyncTarget<Vacancy>();
    const error = await api.sync({ state, vacancies, candidates: new MemorySyncTarget<Candidate>() }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(SyncAccessError);
    expect((error as SyncAccessError).missingScopes).to.deep.equal(['candidates:read']);
    expect(vacancies.records.size).to.equal(0);
    expect(await state.load()).to.equal(null);
    // What the key may read, it syncs.
    expect(Object.keys(await api.sync({ state, vacancies }))).to.deep.equal(['vacancies']);
    expect([...vacancies.records.keys()]).to.deep.equal([vacancy.id]);
  });
});
