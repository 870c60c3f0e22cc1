import { expect } from 'chai';
import { IntegrationClient } from '../../clients/typescript/src/index.js';
import { startPortal, type RunningPortal } from '../../examples/career-portal/src/start-portal.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/**
 * The portal takes applications only to the vacancies it shows (open ones), over the real service: the API
 * itself accepts an application to a vacancy of any status (rule 4), so the portal is what keeps a draft's id,
 * typed into the apply route's URL, from becoming a card.
 */
describe('the career portal applies only to a vacancy it shows as open', () => {
  let server: TestServer;
  let tenant: Tenant;
  let portal: RunningPortal;
  const ids = { open: '', draft: '', closed: '' };

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    ids.open = (await tenant.addVacancy({ title: 'Бэкенд-разработчик' })).id;
    ids.draft = (await tenant.addVacancy({ title: 'Черновик', status: 'draft' })).id;
    ids.closed = (await tenant.addVacancy({ title: 'Закрытая', status: 'closed' })).id;
    const key = await tenant.issueKey(['vacancies:read', 'applications:write']);
    portal = await startPortal({ apiBaseUrl: `${server.origin}/api`, apiKey: key.key, port: 0, cacheTtlMs: 0, log: () => undefined });
  });

  after(async () => {
    await portal?.close();
    await server?.close();
  });

  const apply = (vacancyId: string, externalId: string) =>
    fetch(`${portal.url}/vacancies/${encodeURIComponent(vacancyId)}/apply`, {
      method: 'POST',
      headers: { Origin: portal.url },
      body: new URLSearchParams({ externalId, name: 'Айгерим Нурланова', email: 'aigerim@example.kz' }),
    });

  const cardsOf = async (vacancyId: string) => {
    const cards = [];
    for await (const card of new IntegrationClient({ baseUrl: `${server.origin}/api`, apiKey: tenant.key }).candidates({ vacancyId })) cards.push(card);
    return cards;
  };

  for (const status of ['draft', 'closed'] as const) {
    it(`answers a post to a ${status} vacancy as its page answers (404) and sends nothing to the API`, async () => {
      const page = await fetch(`${portal.url}/vacancies/${encodeURIComponent(ids[status])}`);
      expect(page.status).to.equal(404);
      const pageText = await page.text();
      const response = await apply(ids[status], `portal-${status}-0f8fad5b-d9cb-469f-a165-70867728950e`);
      expect(response.status).to.equal(404);
      expect(await response.text()).to.equal(pageText);
      expect(await cardsOf(ids[status])).to.deep.equal([]);
    });
  }

  it('takes an application to an open vacancy, titled on its success page', async () => {
    const response = await apply(ids.open, 'portal-open-0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(response.status).to.equal(201);
    expect(await response.text()).to.include('«Бэкенд-разработчик»');
    expect((await cardsOf(ids.open)).map((card) => card.source)).to.deep.equal(['career-portal']);
  });
});
