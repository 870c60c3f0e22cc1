import { expect } from 'chai';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

interface Card {
  readonly id: string;
  readonly vacancyId: string | null;
  readonly vacancyTitle: string | null;
  readonly stage: string | null;
  readonly updatedAt: string;
}

/**
 * Deleting a vacancy keeps its cards, without vacancy and stage, and counts them as changed then (DESIGN 3,
 * Deletion). With the cards' JSON rendered when they are written (ADR 18), the delete has to render them
 * again: a stage or an updatedAt left in a stale rendering would show here, on PostgreSQL (TEST_STORE=postgres)
 * as on the in-memory store.
 */
describe('GET /candidates after a vacancy is deleted', () => {
  let server: TestServer;
  let tenant: Tenant;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
  });
  afterEach(() => server.close());

  const candidates = async (query = '') => {
    const response = await tenant.api.get(`/candidates${query}`);
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    return { items: response.body.items as Card[], watermark: response.headers.get('x-sync-watermark') as string };
  };

  it('shows its cards without vacancy and stage, changed at the delete, and sends them again to a sync since before', async () => {
    const doomed = await tenant.addVacancy({ id: 'doomed', title: 'Удаляемая' });
    const kept = await tenant.addVacancy({ id: 'kept', title: 'Остаётся' });
    const applied = (await tenant.api.post('/applications', aMinimalApplicationBody(doomed.id))).body.id as string;
    const moved = (await tenant.addManualCandidate(doomed.id)).id;
    await server.seed.moveCandidate.execute({ companyId: tenant.companyId, id: moved, stage: 'INTERVIEW' });
    const elsewhere = (await tenant.api.post('/applications', aMinimalApplicationBody(kept.id))).body.id as string;
    const before = await candidates();
    expect(before.items.find((c) => c.id === moved)).to.include({ vacancyId: doomed.id, vacancyTitle: 'Удаляемая', stage: 'INTERVIEW' });

    server.clock.advance(60_000);
    const deletedFrom = server.clock.peek().toISOString();
    await server.seed.deleteVacancy.execute({ companyId: tenant.companyId, id: doomed.id });

    const after = await candidates();
    const detached = after.items.filter((c) => c.id === applied || c.id === moved);
    expect(detached).to.have.length(2);
    const deletedAt = detached[0]!.updatedAt;
    expect(deletedAt >= deletedFrom, `${deletedAt} is the delete's time, not before ${deletedFrom}`).to.equal(true);
    const detachedLater = (id: string) => ({ ...before.items.find((c) => c.id === id)!, vacancyId: null, vacancyTitle: null, stage: null, updatedAt: deletedAt });
    // The untouched card first, then the two changed at the delete in id order: everything else as before.
    expect(after.items).to.deep.equal([
      before.items.find((c) => c.id === elsewhere),
      ...[applied, moved].sort().map(detachedLater),
    ]);
    expect((await candidates(`?since=${encodeURIComponent(before.watermark)}`)).items, 'changed since the earlier pass').to.deep.equal(
      [applied, moved].sort().map(detachedLater),
    );
    expect((await candidates(`?vacancyId=${doomed.id}`)).items).to.deep.equal([]);
  });
});
