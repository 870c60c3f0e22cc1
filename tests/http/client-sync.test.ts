import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, IntegrationClient, MemorySyncTarget, type Candidate, type ResourceReport, type SyncPageEvent, type Vacancy } from '../../clients/typescript/src/index.js';
import { FileSyncStateStore } from '../../clients/typescript/src/node.js';
import { CompanyWriter, seededRandom } from '../support/company-writer.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';
import { OpenApiConformance } from '../support/openapi-conformance.js';

/** Everything the service shows the company now, read with no writer about. */
async function serviceState(client: IntegrationClient) {
  const vacancies = new Map<string, Vacancy>();
  const candidates = new Map<string, Candidate>();
  for await (const v of client.vacancies({ status: 'all', limit: 500 })) vacancies.set(v.id, v);
  for await (const c of client.candidates({ limit: 500 })) candidates.set(c.id, c);
  return { vacancies, candidates };
}

const sorted = <T>(map: ReadonlyMap<string, T>) => new Map([...map].sort(([a], [b]) => (a < b ? -1 : 1)));

describe('IntegrationClient.sync() against the service (memory and PostgreSQL stores)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenant: Tenant;
  let writer: CompanyWriter;
  let conformance: OpenApiConformance;
  let dir: string;
  /** Writes to run while the next list request is under way, and after its answer. */
  let during = 0;
  let after = 0;
  const requests: URL[] = [];
  const writeFailures: unknown[] = [];

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    writer = new CompanyWriter(server, tenant.companyId, seededRandom(20261122));
    await writer.seed(25, 60);
    conformance = new OpenApiConformance(await (await fetch(`${server.baseUrl}/openapi.json`)).json());
    dir = await mkdtemp(path.join(tmpdir(), 'client-sync-'));
    during = 0;
    after = 0;
    requests.length = 0;
    writeFailures.length = 0;
  });

  afterEach(async () => {
    expect(writeFailures.map(String)).to.deep.equal([]);
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A client whose list requests run concurrently with writes of the company's recruiters. */
  function syncingClient(): IntegrationClient {
    const checked = conformance.wrap(fetch);
    return new IntegrationClient({
      baseUrl: `${server.origin}/api`,
      apiKey: tenant.key,
      fetch: async (input, init) => {
        requests.push(new URL(String(input)));
        // A failing write fails the test, rather than passing to the client as a failed request it would retry.
        const writing = writer.write(during).catch((error: unknown) => void writeFailures.push(error));
        const response = await checked(input, init);
        await writing;
        await writer.write(after).catch((error: unknown) => void writeFailures.push(error));
        return response;
      },
    });
  }

  const reader = () => new IntegrationClient({ baseUrl: server.baseUrl, apiKey: tenant.key });

  it('converges to the exact state of the service while writers insert, change and delete during every pass', async () => {
    const client = syncingClient();
    const state = new FileSyncStateStore(path.join(dir, 'state.json'));
    const vacancies = new MemorySyncTarget<Vacancy>();
    const candidates = new MemorySyncTarget<Candidate>();
    const modes: string[] = [];
    [during, after] = [3, 2];
    for (let run = 0; run < 6; run++) {
      const report = await client.sync({ state, vacancies, candidates, fullPassEvery: 3, pageSize: 7 });
      const modeOf = (r: ResourceReport) => `${r.mode}${r.deletionPass === null ? '' : '+ids'}`;
      modes.push(`${modeOf(report.vacancies!)}/${modeOf(report.candidates!)}`);
    }
    // Every third run is followed by a deletion pass that reads identifiers only.
    expect(modes).to.deep.equal(['full/full', 'incremental/incremental', 'incremental/incremental', 'incremental+ids/incremental+ids', 'incremental/incremental', 'incremental/incremental']);
    expect(writer.writes, 'the writers were busy during the runs').to.be.greaterThan(150);
    expect(writer.deletedVacancies.size + writer.deletedCandidates.size).to.be.greaterThan(10);

    [during, after] = [0, 0];
    const quiet = await client.sync({ state, vacancies, candidates, fullPassEvery: 3, pageSize: 7 });
    expect(quiet.candidates!.deletionPass).to.not.equal(null);
    const truth = await serviceState(reader());
    expect(sorted(vacancies.records)).to.deep.equal(sorted(truth.vacancies));
    expect(sorted(candidates.records)).to.deep.equal(sorted(truth.candidates));
    expect(conformance.violations).to.deep.equal([]);
  });

  it('misses no change in an incremental pass: after the writers stop, one incremental run has every live record as the service has it', async () => {
    const client = syncingClient();
    const state = new FileSyncStateStore(path.join(dir, 'state.json'));
    const vacancies = new MemorySyncTarget<Vacancy>();
    const candidates = new MemorySyncTarget<Candidate>();
    [during, after] = [3, 2];
    await client.sync({ state, vacancies, candidates, pageSize: 5 });
    await client.sync({ state, vacancies, candidates, pageSize: 5 });
    [during, after] = [0, 0];
    const report = await client.sync({ state, vacancies, candidates, pageSize: 5 });
    expect(report.vacancies!.mode).to.equal('incremental');
    expect(report.candidates!.since, 'since is the watermark of the previous pass').to.be.a('string');

    const truth = await serviceState(reader());
    for (const [id, vacancy] of truth.vacancies) expect(vacancies.records.get(id), id).to.deep.equal(vacancy);
    for (const [id, candidate] of truth.candidates) expect(candidates.records.get(id), id).to.deep.equal(candidate);
    // What the mirror holds beyond the service is exactly what was deleted: only a full pass can tell.
    const extra = [...vacancies.records.keys(), ...candidates.records.keys()].filter((id) => !truth.vacancies.has(id) && !truth.candidates.has(id));
    for (const id of extra) expect(writer.deletedVacancies.has(id) || writer.deletedCandidates.has(id), id).to.equal(true);
  });

  it('after a crash at page 3 of an incremental pass goes on from the saved cursor and the kept watermark, losing no change', async () => {
    const client = syncingClient();
    const stateFile = path.join(dir, 'state.json');
    const vacancies = new MemorySyncTarget<Vacancy>();
    const candidates = new MemorySyncTarget<Candidate>();
    [during, after] = [1, 1];
    await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6 });
    await writer.write(60);

    const crash = (event: SyncPageEvent) => {
      if (event.resource === 'candidates' && event.page === 3) throw new Error('the power went out');
    };
    const failure = await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6, onPage: crash }).catch((error: unknown) => error);
    expect((failure as Error).message).to.equal('the power went out');
    const saved = JSON.parse(await readFile(stateFile, 'utf8'));
    expect(saved.resources.candidates.pass).to.include({ mode: 'incremental', pages: 3, complete: false });
    expect(saved.resources.candidates.pass.cursor).to.be.a('string');
    expect(saved.resources.candidates.pass.watermark, 'the watermark of the first page is kept').to.be.a('string');
    expect(saved.resources.candidates.since, 'since moves only once the pass is complete').to.not.equal(saved.resources.candidates.pass.watermark);

    await writer.write(30);
    requests.length = 0;
    const resumed = await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6 });
    expect(resumed.candidates).to.include({ mode: 'incremental', resumed: true, nextSince: saved.resources.candidates.pass.watermark });
    expect(resumed.candidates!.pages).to.be.greaterThan(3);
    // After the access check's read of one record (limit=1), which precedes every pass.
    const firstCandidateRequest = requests.find((url) => url.pathname.endsWith('/candidates') && url.searchParams.get('limit') !== '1')!;
    expect(firstCandidateRequest.searchParams.get('cursor'), 'the resumed pass starts at the saved cursor').to.equal(saved.resources.candidates.pass.cursor);

    [during, after] = [0, 0];
    const last = await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6 });
    expect(last.candidates!.mode).to.equal('incremental');
    const truth = await serviceState(reader());
    for (const [id, vacancy] of truth.vacancies) expect(vacancies.records.get(id), id).to.deep.equal(vacancy);
    for (const [id, candidate] of truth.candidates) expect(candidates.records.get(id), id).to.deep.equal(candidate);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('after a crash in a full pass keeps the ids it had seen, so it deletes exactly what is gone', async () => {
    const client = syncingClient();
    const stateFile = path.join(dir, 'state.json');
    const vacancies = new MemorySyncTarget<Vacancy>();
    const candidates = new MemorySyncTarget<Candidate>();
    await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6 });
    const lostCard = writer.candidateIds[10]!;
    await server.seed.deleteCandidate.execute({ companyId: tenant.companyId, id: lostCard });

    const crash = (event: SyncPageEvent) => {
      if (event.resource === 'candidates' && event.page === 2) throw new Error('killed');
    };
    await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6, full: true, onPage: crash }).catch(() => undefined);
    expect((await readFile(`${stateFile}.seen-candidates`, 'utf8')).trim().split('\n')).to.have.length(12);

    const resumed = await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6 });
    expect(resumed.candidates).to.include({ mode: 'full', resumed: true });
    expect(resumed.candidates!.deleted).to.deep.equal([lostCard]);
    const truth = await serviceState(reader());
    expect(sorted(vacancies.records)).to.deep.equal(sorted(truth.vacancies));
    expect(sorted(candidates.records)).to.deep.equal(sorted(truth.candidates));
  });

  it('makes a run asked to be full a full pass even when an incremental pass stopped before it, finding the deletions', async () => {
    const client = syncingClient();
    const stateFile = path.join(dir, 'state.json');
    const vacancies = new MemorySyncTarget<Vacancy>();
    const candidates = new MemorySyncTarget<Candidate>();
    await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6 });
    await writer.write(20);
    const lostCard = writer.candidateIds[3]!;
    await server.seed.deleteCandidate.execute({ companyId: tenant.companyId, id: lostCard });
    const crash = (event: SyncPageEvent) => {
      if (event.resource === 'candidates' && event.page === 1) throw new Error('killed');
    };
    await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6, onPage: crash }).catch(() => undefined);
    expect(JSON.parse(await readFile(stateFile, 'utf8')).resources.candidates.pass).to.include({ mode: 'incremental', complete: false });

    const full = await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, candidates, pageSize: 6, full: true });
    expect(full.candidates).to.include({ mode: 'full', resumed: false, since: null });
    expect(full.candidates!.deleted).to.include(lostCard);
    const truth = await serviceState(reader());
    expect(sorted(candidates.records)).to.deep.equal(sorted(truth.candidates));
  });

  it('reports the ids a full pass no longer finds, and only those', async () => {
    const client = syncingClient();
    const state = new FileSyncStateStore(path.join(dir, 'state.json'));
    const vacancies = new MemorySyncTarget<Vacancy>();
    const candidates = new MemorySyncTarget<Candidate>();
    await client.sync({ state, vacancies, candidates });
    const [gone] = writer.vacancyIds;
    await server.seed.deleteVacancy.execute({ companyId: tenant.companyId, id: gone! });
    const lostCard = writer.candidateIds.at(-1)!;
    await server.seed.deleteCandidate.execute({ companyId: tenant.companyId, id: lostCard });

    const incremental = await client.sync({ state, vacancies, candidates });
    expect(incremental.vacancies!.deleted).to.deep.equal([]);
    expect(vacancies.records.has(gone!), 'an incremental pass cannot see a deletion').to.equal(true);
    const full = await client.sync({ state, vacancies, candidates, full: true });
    expect(full.vacancies!.deleted).to.deep.equal([gone]);
    expect(full.candidates!.deleted).to.deep.equal([lostCard]);
    expect(vacancies.records.has(gone!)).to.equal(false);
  });

  it('starts a pass over when the service no longer takes the saved cursor, and refuses a state of another deployment', async () => {
    const stateFile = path.join(dir, 'state.json');
    const client = syncingClient();
    const vacancies = new MemorySyncTarget<Vacancy>();
    await client.sync({ state: new FileSyncStateStore(stateFile), vacancies, pageSize: 4, onPage: (e) => { if (e.page === 2) throw new Error('stop'); } }).catch(() => undefined);
    const state = new FileSyncStateStore(stateFile);
    const saved = (await state.load())!;
    saved.resources.vacancies!.pass!.cursor = 'Zm9yZ2Vk';
    await state.save(saved);
    const report = await client.sync({ state, vacancies, pageSize: 4 });
    expect(report.vacancies).to.include({ mode: 'full', resumed: true });
    const truth = await serviceState(reader());
    expect(sorted(vacancies.records)).to.deep.equal(sorted(truth.vacancies));

    const elsewhere = new IntegrationClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: tenant.key });
    const refusal = await elsewhere.sync({ state, vacancies }).catch((error: unknown) => error);
    expect((refusal as Error).message).to.contain('belongs to');
    expect(refusal).to.not.be.instanceOf(ApiError);
  });
});
