import { expect } from 'chai';
import { isRenderingCurrent } from '../../adapters/presenters/rendering-currency.js';
import { aManualCard, aVacancy, nextId } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { sqlOn } from '../support/sql.js';

/** Local mean time: Almaty was UTC+5:07:48 until 1924, an offset with seconds that pg's own Date formatting cuts to minutes. */
const ZONE = 'Asia/Almaty';
const PUBLISHED_AT = new Date('1900-06-01T00:00:00.000Z');
const NOW = new Date('1900-06-02T03:04:05.678Z');

/**
 * A write inside a unit of work sends its values bound (executeBound); a Date must reach PostgreSQL as the
 * instant it is, whatever the process's time zone, so that the stored timestamp and the stored rendering agree.
 */
describe('Timestamps written inside a unit of work (PostgreSQL)', () => {
  const database = usePostgresTestDatabase();
  let zone: string | undefined;

  beforeEach(() => {
    zone = process.env.TZ;
    process.env.TZ = ZONE; // Node applies a change of TZ at once.
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it(`keeps a vacancy's and a card's instants exact in a process running in ${ZONE}, with its local mean time of 1900`, async () => {
    expect(PUBLISHED_AT.getSeconds(), 'the zone has an offset with seconds in 1900').to.equal(48);
    const { vacancies, candidates, unitOfWork } = database().adapters();
    const companyId = nextId('co');
    const vacancy = aVacancy({ companyId, now: NOW, input: { publishedAt: PUBLISHED_AT } });
    const card = aManualCard({ companyId, vacancyId: vacancy.id, now: NOW });
    await unitOfWork.run(companyId, 'write', async () => {
      await vacancies.insert(vacancy);
      await candidates.insert(card);
    });

    expect((await vacancies.findById(companyId, vacancy.id))?.toSnapshot()).to.deep.equal(vacancy.toSnapshot());
    expect((await candidates.findById(companyId, card.id))?.toSnapshot()).to.deep.equal(card.toSnapshot());

    const [stored] = await sqlOn(database().databases.business)<{ published_at_ms: number; created_at_ms: number; rendering: string }[]>(
      `select round(extract(epoch from published_at) * 1000)::float8 as published_at_ms,
              round(extract(epoch from created_at) * 1000)::float8 as created_at_ms, rendering
         from vacancies where company_id = ? and id = ?`,
      [companyId, vacancy.id],
    );
    expect(stored?.published_at_ms).to.equal(PUBLISHED_AT.getTime());
    expect(stored?.created_at_ms).to.equal(NOW.getTime());
    const rendered = JSON.parse(stored!.rendering) as { publishedAt: string; createdAt: string };
    expect(rendered.publishedAt).to.equal('1900-06-01T00:00:00.000Z');
    expect(rendered.createdAt).to.equal(NOW.toISOString());

    await expectCardStoredAt(companyId, card.id, NOW);
  });

  it(`keeps the instants of cards inserted many at once exact in a process running in ${ZONE}, and their renderings current`, async () => {
    const { vacancies, candidates } = database().adapters();
    const companyId = nextId('co');
    const vacancy = aVacancy({ companyId, now: NOW });
    await vacancies.insert(vacancy);
    const cards = [aManualCard({ companyId, vacancyId: vacancy.id, now: NOW }), aManualCard({ companyId, vacancyId: vacancy.id, now: PUBLISHED_AT })];
    await candidates.insertMany(cards);

    for (const card of cards) {
      expect((await candidates.findById(companyId, card.id))?.toSnapshot()).to.deep.equal(card.toSnapshot());
      await expectCardStoredAt(companyId, card.id, card.toSnapshot().cardUpdatedAt);
    }
  });

  /** The card's timestamps as stored, and its rendering current for the position stored (a list sends it as it is). */
  async function expectCardStoredAt(companyId: string, id: string, when: Date): Promise<void> {
    const [stored] = await sqlOn(database().databases.business)<{ created_at_ms: number; card_updated_at_ms: number; modified_at_ms: number; rendering: string }[]>(
      `select round(extract(epoch from created_at) * 1000)::float8 as created_at_ms,
              round(extract(epoch from card_updated_at) * 1000)::float8 as card_updated_at_ms,
              round(extract(epoch from modified_at) * 1000)::float8 as modified_at_ms, rendering
         from candidates where company_id = ? and id = ?`,
      [companyId, id],
    );
    expect(stored?.created_at_ms).to.equal(when.getTime());
    expect(stored?.card_updated_at_ms).to.equal(when.getTime());
    expect(stored?.modified_at_ms).to.equal(when.getTime());
    expect(isRenderingCurrent(stored!.rendering, new Date(stored!.modified_at_ms)), stored!.rendering).to.equal(true);
    expect((JSON.parse(`{${stored!.rendering}`) as { createdAt: string }).createdAt).to.equal(when.toISOString());
  }
});
