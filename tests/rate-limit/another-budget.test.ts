import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { openInstance, type StoreInstance } from './support/stores.js';

/** RateLimitStore.limiterFor: a second budget (a platform token's ceiling) on the store's own connections. */
describe('A second budget on the PostgreSQL rate-limit store', () => {
  const database = usePostgresTestDatabase();
  const opened: StoreInstance[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((instance) => instance.store.close()));
  });

  it('counts its own figure, shared by two instances, and is the same limiter for the same figure', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => openInstance('postgres', database().businessUrl, { points: 2, windowS: 60 })));
    opened.push(a!, b!);
    const bucket = `platform-token-ceiling:${randomBytes(6).toString('hex')}`;
    expect(a!.store.limiterFor(5)).to.equal(a!.store.limiterFor(5));
    const remaining = [];
    for (const instance of [a, b, a, b, a]) remaining.push((await instance!.store.limiterFor(5).consume(bucket)).remaining);
    expect(remaining).to.deep.equal([4, 3, 2, 1, 0]);
    expect((await b!.store.limiterFor(5).consume(bucket)).allowed).to.equal(false);
    expect((await a!.store.limiter.consume(`key:${randomBytes(6).toString('hex')}`)).remaining, 'the main budget is unchanged').to.equal(1);
  });
});
