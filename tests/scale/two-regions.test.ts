import { expect } from 'chai';
import pg from 'pg';
import { ApiClient } from '../support/api-client.js';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { adminContainer, type AdminContainer } from './support/admin-container.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const REGIONS = ['kz', 'uz'] as const;
type Region = (typeof REGIONS)[number];

const TITLES: Record<Region, string[]> = {
  kz: ['Бухгалтер (Алматы)', 'Курьер (Астана)'],
  uz: ['Оператор колл-центра (Ташкент)'],
};

async function countRows(url: string, table: 'companies' | 'service_keys' | 'vacancies'): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('Two regions: REGION=kz and REGION=uz with their own business databases and one key registry', function () {
  this.timeout(120_000);
  const drops: (() => Promise<void>)[] = [];
  const admins: AdminContainer[] = [];
  const servers: Partial<Record<Region, ServerProcess>> = {};
  const business: Partial<Record<Region, string>> = {};
  let registryUrl: string;
  let companyId: string;
  let key: { id: string; key: string };

  before(async function () {
    this.timeout(120_000);
    const databases = await Promise.all([createThrowawayDatabaseUrl(), createThrowawayDatabaseUrl(), createThrowawayDatabaseUrl()]);
    drops.push(...databases.map((database) => database.drop));
    const [registry, kz, uz] = databases.map((database) => database.url) as [string, string, string];
    registryUrl = registry;
    Object.assign(business, { kz, uz });

    // The admin side of each deployment: companies and keys go to the registry, vacancies to the region.
    const [kzAdmin, uzAdmin] = await Promise.all(REGIONS.map((region) => adminContainer({ businessUrl: business[region]!, registryUrl })));
    admins.push(kzAdmin!, uzAdmin!);
    companyId = await kzAdmin!.company('ТОО «Два региона»');
    key = await kzAdmin!.issueKey(companyId);
    await kzAdmin!.vacancies(companyId, TITLES.kz.map((title) => ({ title })));
    await uzAdmin!.vacancies(companyId, TITLES.uz.map((title) => ({ title })));

    const started = await Promise.all(
      REGIONS.map((region) =>
        startServerProcess({
          STORE: 'postgres',
          REGION: region,
          DATABASE_URL: business[region]!,
          KEYS_DATABASE_URL: registryUrl,
          RATE_LIMIT_STORE: 'memory',
          // Every request reads the registry: a revocation shows at once.
          KEY_CACHE_TTL_MS: '0',
        }),
      ),
    );
    REGIONS.forEach((region, i) => (servers[region] = started[i]));
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await Promise.all(admins.map((admin) => admin.dispose()));
    for (const drop of drops) await drop();
  });

  const apiOf = (region: Region) => new ApiClient(servers[region]!.apiUrl, key.key);

  it('keep companies and keys in the registry only, and each region its own vacancies', async () => {
    expect([await countRows(registryUrl, 'companies'), await countRows(registryUrl, 'service_keys')]).to.deep.equal([1, 1]);
    for (const region of REGIONS) {
      expect(servers[region]!.logs().find((line) => line.msg === 'integration API listening')).to.include({ region });
      expect(await countRows(business[region]!, 'service_keys'), `${region}: no keys in the business database`).to.equal(0);
      expect(await countRows(business[region]!, 'companies'), `${region}: no companies in the business database`).to.equal(0);
      expect(await countRows(business[region]!, 'vacancies')).to.equal(TITLES[region].length);
    }
  });

  it("let one key read each region's own data from that region's deployment", async () => {
    for (const region of REGIONS) {
      const response = await apiOf(region).get('/vacancies?status=all');
      expect(response.status, response.text).to.equal(200);
      expect(response.body.items.map((v: { title: string }) => v.title).sort(), region).to.deep.equal([...TITLES[region]].sort());
    }

    // An application lands in the region it was sent to; externalIds are unique per region's database.
    const ids: Partial<Record<Region, string>> = {};
    for (const region of REGIONS) {
      const [vacancy] = (await apiOf(region).get('/vacancies?status=all')).body.items as { id: string }[];
      const created = await apiOf(region).post('/applications', { externalId: 'portal-1', vacancyId: vacancy!.id, candidate: { name: 'Шахзод Рахимов' } });
      expect(created.status, created.text).to.equal(201);
      ids[region] = created.body.id;
    }
    expect(ids.kz).to.not.equal(ids.uz);
    for (const region of REGIONS) {
      const cards = (await apiOf(region).get('/candidates')).body.items as { id: string }[];
      expect(cards.map((card) => card.id), region).to.deep.equal([ids[region]]);
    }
  });

  it('shut a key revoked in the shared registry out of both regions', async () => {
    for (const region of REGIONS) expect((await apiOf(region).get('/vacancies')).status, region).to.equal(200);
    await admins[1]!.revokeKey(key.id);
    for (const region of REGIONS) {
      const refused = await apiOf(region).get('/vacancies');
      expect(refused.status, region).to.equal(401);
      expect(refused.body.code).to.equal('unauthorized');
    }
  });
});
