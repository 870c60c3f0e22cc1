import { expect } from 'chai';
import fc from 'fast-check';
import { EXTERNAL_ID_MAX_LENGTH, VACANCY_ID_MAX_LENGTH } from '../../domain/inbound-application/application-limits.js';
import { expectWellFormedAnswer, hostileName, hostileRuns, hostileText } from '../support/hostile-input.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { API_PATH, startTestServer, type TestServer } from '../support/http-test-server.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';
import { daysInMonth } from '../support/rfc3339-model.js';

/** Text of `count` code points, each four bytes in UTF-8: the most bytes a bound in characters lets through. */
const astral = (count: number) => '😀'.repeat(count);
const codePoints = (text: string) => [...text].length;

describe('POST /applications with values at the ends of their ranges, on every store', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenant: Tenant;
  /** Vacancy ids are ASCII (letters, digits and . _ : -); the longest one is among them. */
  const vacancyIds = ['v-plain', `v:${'x'.repeat(VACANCY_ID_MAX_LENGTH - 2)}`];
  /** What each created card must show in the list: its externalId and birthDate as sent. */
  const created = new Map<string, { externalId: string; birthDate: string | null }>();

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    for (const id of vacancyIds) await tenant.addVacancy({ id });
  });
  after(() => server.close());

  function post(body: unknown): Promise<RawResponse> {
    return rawRequest(server.origin, {
      method: 'POST',
      path: `${API_PATH}/applications`,
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.key },
      body: JSON.stringify(body),
    });
  }

  function pointersOf(response: RawResponse): string[] {
    return response.body.errors.map((problem: { pointer: string }) => problem.pointer);
  }

  it('stores any calendar date of years 0000..9999 as birthDate verbatim, and refuses any other with a 400 at /candidate/birthDate', async () => {
    const dates = fc.record({
      year: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(0, 1, 9999, 10_000)),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.oneof(fc.integer({ min: 0, max: 28 }), fc.integer({ min: 29, max: 32 })),
    });
    await fc.assert(
      fc.asyncProperty(dates, async ({ year, month, day }) => {
        const birthDate = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        const body = aMinimalApplicationBody(vacancyIds[0]!, { candidate: { name: 'Айгерим', birthDate } });
        const response = await post(body);
        const valid = year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
        if (!valid) {
          expectWellFormedAnswer(response, [400]);
          expect(pointersOf(response), birthDate).to.deep.equal(['/candidate/birthDate']);
          return;
        }
        expectWellFormedAnswer(response, [201]);
        created.set(response.body.id, { externalId: body.externalId, birthDate });
      }),
      hostileRuns(120),
    );
    await expectListedAsCreated();
  });

  it('takes an externalId and a vacancyId of up to their length in four-byte characters, and names either when it is too long or unknown', async () => {
    const externalIds = fc.oneof(
      hostileName(EXTERNAL_ID_MAX_LENGTH),
      hostileText(EXTERNAL_ID_MAX_LENGTH + 10),
      fc.constantFrom('', astral(EXTERNAL_ID_MAX_LENGTH), astral(EXTERNAL_ID_MAX_LENGTH + 1), `${astral(EXTERNAL_ID_MAX_LENGTH - 1)}x`),
    );
    const vacancies = fc.oneof(fc.constantFrom(...vacancyIds, astral(VACANCY_ID_MAX_LENGTH), astral(VACANCY_ID_MAX_LENGTH + 1), `${vacancyIds[1]}x`, 'v-unknown'), hostileText(VACANCY_ID_MAX_LENGTH + 6));
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(externalIds, vacancies, async (externalId, vacancyId) => {
        const response = await post(aMinimalApplicationBody(vacancyId, { externalId }));
        const externalIdFits = codePoints(externalId) >= 1 && codePoints(externalId) <= EXTERNAL_ID_MAX_LENGTH;
        const vacancyIdFits = codePoints(vacancyId) >= 1 && codePoints(vacancyId) <= VACANCY_ID_MAX_LENGTH;
        if (!externalIdFits || !vacancyIdFits) {
          expectWellFormedAnswer(response, [400]);
          const expected = [...(externalIdFits ? [] : ['/externalId']), ...(vacancyIdFits ? [] : ['/vacancyId'])];
          expect(pointersOf(response).sort(), `${externalId} ${vacancyId}`).to.deep.equal(expected.sort());
        } else if (seen.has(externalId)) {
          // A repeated externalId answers with the earlier card, whatever the vacancy now named.
          expectWellFormedAnswer(response, [200]);
        } else if (!vacancyIds.includes(vacancyId)) {
          expectWellFormedAnswer(response, [404]);
        } else {
          expectWellFormedAnswer(response, [201]);
          seen.add(externalId);
          created.set(response.body.id, { externalId, birthDate: null });
        }
      }),
      hostileRuns(120),
    );
    await expectListedAsCreated();
  });

  async function expectListedAsCreated(): Promise<void> {
    const response = await rawRequest(server.origin, { method: 'GET', path: `${API_PATH}/candidates?limit=500`, headers: { 'x-api-key': tenant.key } });
    expectWellFormedAnswer(response, [200]);
    const listed = new Map<string, { externalId: string; birthDate: string | null }>(
      response.body.items.map((card: { id: string; externalId: string; candidate: { birthDate: string | null } }) => [
        card.id,
        { externalId: card.externalId, birthDate: card.candidate.birthDate },
      ]),
    );
    expect(listed).to.deep.equal(created);
  }
});
