import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { ApiResponse } from '../support/api-client.js';
import { aResume } from '../support/builders.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

const STRONG_TAG = /^"[A-Za-z0-9_-]{43}"$/;
const tagOfBody = (text: string) => `"${createHash('sha256').update(text, 'utf8').digest('base64url')}"`;
const ifNoneMatch = (tag: string) => ({ headers: { 'If-None-Match': tag } });
/** The tag of a page as sent uncompressed: fetch asks for compression, and a compressed page's tag names its coding. */
const plainTag = (tag: string | null) => tag?.replace(/-(gzip|br)"$/, '"');

describe('Conditional list requests: an unchanged page is a 304 that the request budget does not pay for', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer({ config: { rateLimitPoints: 1000, rateLimitWindowS: 60, notModifiedRateLimitPoints: 10_000 } });
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
    await tenant.addManualCandidate(vacancyId, 'Айгерим Нурланова');
  });
  after(() => server.close());

  for (const path of ['/vacancies?status=all', '/candidates', '/vacancies?status=all&fields=id', '/candidates?fields=id&limit=1']) {
    it(`tags every page of GET ${path} with the hash of its bytes, and answers the tag with 304, no body and a fresh watermark`, async () => {
      const page = await tenant.api.get(path);
      expect(page.status).to.equal(200);
      const tag = page.headers.get('etag') as string;
      expect(plainTag(tag), 'a strong tag').to.match(STRONG_TAG);
      expect(plainTag(tag), 'the SHA-256 of exactly the body sent').to.equal(tagOfBody(page.text));
      const again = await tenant.api.get(path, ifNoneMatch(tag));
      expect([again.status, again.text, again.headers.get('etag'), again.headers.get('content-type')]).to.deep.equal([304, '', tag, null]);
      expect(Date.parse(again.headers.get('x-sync-watermark') as string)).to.be.at.least(Date.parse(page.headers.get('x-sync-watermark') as string));
      expect(again.headers.get('ratelimit')).to.match(/^"default";r=\d+;t=\d+, "not-modified";r=\d+;t=\d+$/);
      expect(again.headers.get('ratelimit-policy')).to.equal('"default";q=1000;w=60, "not-modified";q=10000;w=60');
      expect(again.headers.get('cache-control')).to.equal('no-store');
    });
  }

  it('answers a page whose content changed in full, for a new record, a changed one and a deleted one', async () => {
    const other = await aTenant(server);
    const v = (await other.addVacancy()).id;
    const card = await other.addManualCandidate(v);
    for (const [change, path] of [
      [() => other.addManualCandidate(v, 'Новый Кандидат'), '/candidates'],
      [() => server.seed.updateResume.execute({ companyId: other.companyId, id: card.id, resume: aResume({ role: 'Team lead' }) }), '/candidates'],
      [() => other.addVacancy({ title: 'Ещё одна' }), '/vacancies?fields=id'],
      [() => server.seed.deleteCandidate.execute({ companyId: other.companyId, id: card.id }), '/candidates?fields=id'],
    ] as const) {
      const before = await other.api.get(path);
      await change();
      const after = await other.api.get(path, ifNoneMatch(before.headers.get('etag') as string));
      expect(after.status, path).to.equal(200);
      expect(after.text).to.not.equal(before.text);
      expect(plainTag(after.headers.get('etag'))).to.equal(tagOfBody(after.text));
    }
  });

  it('reads If-None-Match as RFC 9110 does: a list of tags, weak ones compared weakly, * for any page, a malformed header as none', async () => {
    const page = await tenant.api.get('/candidates');
    const tag = page.headers.get('etag') as string;
    for (const header of [`"other", ${tag}`, `W/${tag}`, '*', ` ${tag} , "x"`]) {
      expect((await tenant.api.get('/candidates', ifNoneMatch(header))).status, header).to.equal(304);
    }
    for (const header of ['"other"', tag.slice(1, -1), `${tag} garbage`, `"${'a'.repeat(43)}"`]) {
      expect((await tenant.api.get('/candidates', ifNoneMatch(header))).status, header).to.equal(200);
    }
  });

  it('marks a compressed page\'s tag with its coding, and takes that tag back', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => tenant.addManualCandidate(vacancyId, `Кандидат ${i}`)));
    const gzipped = await fetch(`${server.baseUrl}/candidates`, { headers: { 'X-API-Key': tenant.key, 'Accept-Encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).to.equal('gzip');
    const text = await gzipped.text();
    const tag = gzipped.headers.get('etag') as string;
    expect(tag).to.equal(`${tagOfBody(text).slice(0, -1)}-gzip"`);
    const again = await fetch(`${server.baseUrl}/candidates`, { headers: { 'X-API-Key': tenant.key, 'Accept-Encoding': 'gzip', 'If-None-Match': tag } });
    expect([again.status, again.headers.get('etag')]).to.deep.equal([304, tag]);
  });
});

describe('Conditional list requests: the two budgets', () => {
  let server: TestServer;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer({ config: { rateLimitPoints: 3, rateLimitWindowS: 60, notModifiedRateLimitPoints: 8 } });
    tenant = await aTenant(server);
  });
  after(() => server.close());

  it('spends no point of the request budget on a 304, one on a conditional request answered 200, and refuses past either budget', async () => {
    const first = await tenant.api.get('/candidates');
    const tag = first.headers.get('etag') as string;
    expect(first.headers.get('ratelimit')).to.equal('"default";r=2;t=60');
    const remaining = (r: ApiResponse) => /"default";r=(\d+).*"not-modified";r=(\d+)/.exec(r.headers.get('ratelimit') as string)?.slice(1).map(Number);
    const notModified = await tenant.api.get('/candidates', ifNoneMatch(tag));
    expect([notModified.status, remaining(notModified)]).to.deep.equal([304, [2, 7]]);
    const changed = await tenant.api.get('/candidates', ifNoneMatch('"stale"'));
    expect([changed.status, remaining(changed)]).to.deep.equal([200, [1, 6]]);
    await tenant.api.get('/vacancies');
    // The request budget is spent: a page is refused, a 304 is still answered.
    const refused = await tenant.api.get('/candidates', ifNoneMatch('"stale"'));
    expect([refused.status, refused.body.code, refused.headers.get('etag'), refused.headers.get('x-sync-watermark')]).to.deep.equal([429, 'rate_limited', null, null]);
    expect(Number(refused.headers.get('retry-after'))).to.be.at.least(1);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await tenant.api.get('/candidates', ifNoneMatch(tag))).status);
    expect(statuses, 'five 304s, then the conditional budget of 8 is spent').to.deep.equal([304, 304, 304, 304, 304, 429]);
  });
});

describe('Conditional list requests under concurrent writes', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ config: { rateLimitPoints: 100_000, rateLimitWindowS: 60, notModifiedRateLimitPoints: 100_000 } });
  });
  after(() => server.close());

  for (const path of ['/candidates?limit=500', '/candidates?limit=500&fields=id']) {
    it(`never answers 304 to GET ${path} once a write has changed the page, and tags every page as its bytes`, async () => {
      const tenant = await aTenant(server);
      const vacancyId = (await tenant.addVacancy()).id;
      const cards = await Promise.all(Array.from({ length: 20 }, (_, i) => tenant.addManualCandidate(vacancyId, `Кандидат ${i}`)));
      const held = await tenant.api.get(path);
      const heldTag = held.headers.get('etag') as string;
      // Every write changes the page for good: a new card, or one of the cards held deleted.
      const writes = [
        ...Array.from({ length: 10 }, (_, i) => () => tenant.addManualCandidate(vacancyId, `Новый ${i}`)),
        ...cards.slice(0, 10).map((card) => () => server.seed.deleteCandidate.execute({ companyId: tenant.companyId, id: card.id })),
      ];
      let firstWriteDoneAt = Infinity;
      const writers = (async () => {
        for (const write of writes) {
          await write();
          firstWriteDoneAt = Math.min(firstWriteDoneAt, performance.now());
        }
      })();
      const reads: { startedAt: number; conditional: boolean; answer: ApiResponse }[] = [];
      const reader = async (conditional: boolean) => {
        for (let i = 0; i < 25; i++) {
          const startedAt = performance.now();
          reads.push({ startedAt, conditional, answer: await tenant.api.get(path, conditional ? ifNoneMatch(heldTag) : {}) });
        }
      };
      await Promise.all([writers, reader(true), reader(true), reader(false)]);
      const final = await tenant.api.get(path, ifNoneMatch(heldTag));
      expect(final.status, 'the page changed').to.equal(200);

      const bodyOfTag = new Map<string, string>([[heldTag, held.text]]);
      for (const { startedAt, conditional, answer } of reads) {
        if (answer.status === 304) {
          expect(conditional).to.equal(true);
          expect(startedAt, 'a 304 only for a read begun before any write was done').to.be.below(firstWriteDoneAt);
          continue;
        }
        expect(answer.status).to.equal(200);
        const tag = answer.headers.get('etag') as string;
        expect(plainTag(tag)).to.equal(tagOfBody(answer.text));
        if (conditional) expect(answer.text, 'a conditional request answered in full got another page').to.not.equal(held.text);
        // The same tag, the same bytes, whichever reader read them.
        expect(bodyOfTag.get(tag) ?? answer.text).to.equal(answer.text);
        bodyOfTag.set(tag, answer.text);
      }
      expect(reads.filter((r) => r.answer.status === 200).length, 'the writes overlapped the reads').to.be.greaterThan(0);
    });
  }
});
