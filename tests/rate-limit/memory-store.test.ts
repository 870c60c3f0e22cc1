import { expect } from 'chai';
import { createMemoryRateLimiter } from '../../adapters/rate-limit/flexible-rate-limiter.js';

describe('The memory rate-limit store (RATE_LIMIT_STORE=memory)', () => {
  it('counts a budget per bucket and refuses past it, with the time to the reset', async () => {
    const limiter = createMemoryRateLimiter({ points: 2, windowS: 60 });
    const outcomes = [await limiter.consume('a'), await limiter.consume('a'), await limiter.consume('a')];
    expect(outcomes.map((o) => [o.allowed, o.remaining])).to.deep.equal([[true, 1], [true, 0], [false, 0]]);
    expect(outcomes[2]!.resetAfterMs).to.be.within(1, 60_000);
    expect((await limiter.consume('b')).remaining, 'another bucket has its own budget').to.equal(1);
  });

  it('peeks at a bucket without spending, as consume would decide', async () => {
    const limiter = createMemoryRateLimiter({ points: 2, windowS: 60 });
    expect(await limiter.peek('a'), 'an untouched bucket').to.deep.equal({ allowed: true, remaining: 2, resetAfterMs: 0 });
    await limiter.consume('a');
    const once = await limiter.peek('a');
    expect([once.allowed, once.remaining]).to.deep.equal([true, 1]);
    expect(once.resetAfterMs).to.be.within(1, 60_000);
    expect((await limiter.peek('a')).remaining, 'a peek spends nothing').to.equal(1);
    await limiter.consume('a');
    const spent = await limiter.peek('a');
    expect([spent.allowed, spent.remaining], 'spent').to.deep.equal([false, 0]);
    expect(spent.resetAfterMs).to.be.within(1, 60_000);
    expect((await limiter.consume('a')).allowed, 'as consume decides').to.equal(false);
    expect((await limiter.peek('a')).allowed, 'spent past the budget').to.equal(false);
  });
});
