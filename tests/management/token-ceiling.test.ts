import { expect } from 'chai';
import type { ApiResponse } from '../support/api-client.js';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';

const CEILING = 8;
const remainingOf = (answer: ApiResponse) => [answer.status, /;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]];

describe("The management API: a platform token's ceiling across companies", () => {
  let server: ManagementTestServer;

  beforeEach(async () => {
    server = await startManagementTestServer({ config: { rateLimitPoints: 3, rateLimitWindowS: 60, managementTokenRateLimitPoints: CEILING } });
  });
  afterEach(() => server.close());

  it('refuses a token naming made-up companies once its ceiling is spent, whatever company comes next', async () => {
    const answers: ApiResponse[] = [];
    for (let n = 0; n < 3 * CEILING; n++) answers.push(await server.client.get(`/companies/nosuch-${n}/keys`));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.slice(0, CEILING)).to.deep.equal(Array(CEILING).fill(404));
    expect(statuses.slice(CEILING)).to.deep.equal(Array(2 * CEILING).fill(429));
    const refused = answers[CEILING]!;
    expect(refused.headers.get('ratelimit-policy'), 'the budget that refused it').to.equal(`"default";q=${CEILING};w=60`);
    expect(refused.body).to.include({ status: 429, code: 'rate_limited' });
    expect(refused.body.detail).to.include(`${CEILING} requests per 60 s`);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(remainingOf(await server.client.post('/companies', { name: 'ТОО «Новая»' })), "and the token's own routes").to.deep.equal([429, '0']);
    const other = server.client.as({ token: (await server.issuePlatformToken()).token });
    expect((await other.get('/companies/nosuch-0/keys')).status, 'another token has a ceiling of its own').to.equal(404);
  });

  it('keeps the per-company budget below the ceiling and tells it in the headers while the ceiling holds', async () => {
    const busy = [];
    for (let i = 0; i < 4; i++) busy.push(remainingOf(await server.client.get('/companies/busy/keys')));
    expect(busy).to.deep.equal([[404, '2'], [404, '1'], [404, '0'], [429, '0']]);
    expect(remainingOf(await server.client.get('/companies/quiet')), 'another company, under the ceiling').to.deep.equal([404, '2']);
  });
});
