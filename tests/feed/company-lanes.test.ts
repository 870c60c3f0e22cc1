import { expect } from 'chai';
import { CompanyLanes } from '../../adapters/feed/company-lanes.js';

const tick = () => new Promise((wake) => setTimeout(wake, 5));

describe('CompanyLanes (the feed applies a company\'s events one at a time)', () => {
  it('runs the work of one company one at a time, in arrival order, and of different companies side by side', async () => {
    const lanes = new CompanyLanes();
    const running = new Map<string, number>();
    let most = new Map<string, number>();
    const order: string[] = [];
    const work = (company: string, name: string) => async () => {
      running.set(company, (running.get(company) ?? 0) + 1);
      most.set(company, Math.max(most.get(company) ?? 0, running.get(company) as number));
      order.push(`${name} start`);
      await tick();
      order.push(`${name} end`);
      running.set(company, (running.get(company) as number) - 1);
      return name;
    };
    const results = await Promise.all([lanes.run('a', work('a', 'a1')), lanes.run('a', work('a', 'a2')), lanes.run('b', work('b', 'b1')), lanes.run('a', work('a', 'a3'))]);
    expect(results).to.deep.equal(['a1', 'a2', 'b1', 'a3']);
    expect(Object.fromEntries(most)).to.deep.equal({ a: 1, b: 1 });
    expect(order.indexOf('b1 start'), 'b did not wait for a').to.be.lessThan(order.indexOf('a1 end'));
    expect(order.filter((step) => step.startsWith('a'))).to.deep.equal(['a1 start', 'a1 end', 'a2 start', 'a2 end', 'a3 start', 'a3 end']);
    expect(lanes.busy).to.equal(0);
    most = new Map();
  });

  it('goes on with a company\'s next work after one fails, and hands the failure to its caller', async () => {
    const lanes = new CompanyLanes();
    const failed = lanes.run('a', async () => {
      throw new Error('boom');
    });
    const next = lanes.run('a', async () => 'next');
    let caught: unknown;
    await failed.catch((error: unknown) => (caught = error));
    expect((caught as Error).message).to.equal('boom');
    expect(await next).to.equal('next');
  });
});
