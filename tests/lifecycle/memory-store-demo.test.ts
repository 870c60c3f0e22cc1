import { expect } from 'chai';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';

interface Page {
  readonly items: readonly { readonly id: string }[];
}

describe('STORE=memory: a demo company at start', function () {
  this.timeout(90_000);
  let service: ServerProcess | undefined;

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it('seeds a demo company and logs its development key once, before listening; the key reads its data', async () => {
    service = await startServerProcess({ STORE: 'memory' });
    const logs = service.logs();
    const seeded = logs.filter((line) => typeof line.developmentKey === 'string');
    expect(seeded, service.output()).to.have.length(1);
    const line = seeded[0] as Record<string, unknown>;
    expect(String(line.msg)).to.match(/^STORE=memory: demo company seeded; developmentKey is a development key/);
    expect(logs.findIndex((l) => l === line)).to.be.below(logs.findIndex((l) => l.msg === 'integration API listening'));
    const key = line.developmentKey as string;
    // The log line is the only place it appears.
    expect(service.output().split(key)).to.have.length(2);

    const headers = { 'X-API-Key': key };
    const vacancies = await fetch(`${service.apiUrl}/vacancies?status=all&limit=500`, { headers });
    expect(vacancies.status).to.equal(200);
    expect(((await vacancies.json()) as Page).items).to.have.length(line.vacancies as number).and.not.be.empty;
    const candidates = await fetch(`${service.apiUrl}/candidates?limit=5`, { headers });
    expect(candidates.status).to.equal(200);
    expect(((await candidates.json()) as Page).items).to.have.length(5);
  });

  describe('on PostgreSQL', () => {
    const database = usePostgresTestDatabase();

    it('seeds nothing: there the admin CLI fills the store', async () => {
      service = await startServerProcess({ STORE: 'postgres', DATABASE_URL: database().businessUrl });
      expect(service.output()).not.to.contain('developmentKey');
      expect(service.output()).not.to.contain('demo company');
    });
  });
});
