import { expect } from 'chai';
import { BoundedBatchPlaces, CompanyBatches, type ItemOutcome } from '../../../application/use-cases/company-batches.js';

/** A store that records its batches and finishes each only when the test says so. */
class HeldStore {
  readonly batches: { companyId: string; items: readonly number[]; finish: (outcomes?: ItemOutcome<string>[] | Error) => void }[] = [];

  readonly store = (companyId: string, items: readonly number[]): Promise<ItemOutcome<string>[]> =>
    new Promise((resolve, reject) => {
      this.batches.push({
        companyId,
        items,
        finish: (outcomes) => {
          if (outcomes instanceof Error) reject(outcomes);
          else resolve(outcomes ?? items.map((item) => ({ value: `stored ${item}` })));
        },
      });
    });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CompanyBatches (group commit of one company\'s applications)', () => {
  it('stores a lone item at once, in a batch of its own', async () => {
    const held = new HeldStore();
    const batches = new CompanyBatches(held.store, { concurrency: 1, maxItems: 10 });
    const answer = batches.submit('co-1', 1);
    await settle();
    expect(held.batches.map((b) => b.items)).to.deep.equal([[1]]);
    held.batches[0]?.finish();
    expect(await answer).to.equal('stored 1');
  });

  it('sends what arrived while every batch was busy as the next batch, up to maxItems a batch', async () => {
    const held = new HeldStore();
    const batches = new CompanyBatches(held.store, { concurrency: 2, maxItems: 3 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((item) => batches.submit('co-1', item));
    await settle();
    // Two batches run at once: the first item alone, then the second alone, while the rest wait.
    expect(held.batches.map((b) => b.items)).to.deep.equal([[1], [2]]);
    held.batches[0]?.finish();
    await settle();
    expect(held.batches.map((b) => b.items)).to.deep.equal([[1], [2], [3, 4, 5]]);
    held.batches[1]?.finish();
    await settle();
    expect(held.batches.map((b) => b.items)).to.deep.equal([[1], [2], [3, 4, 5], [6, 7]]);
    held.batches[2]?.finish();
    held.batches[3]?.finish();
    expect(await Promise.all(answers)).to.deep.equal([1, 2, 3, 4, 5, 6, 7].map((item) => `stored ${item}`));
  });

  it('keeps companies apart: another company\'s item does not wait for a busy company', async () => {
    const held = new HeldStore();
    const batches = new CompanyBatches(held.store, { concurrency: 1, maxItems: 10 });
    void batches.submit('co-1', 1);
    void batches.submit('co-1', 2);
    const other = batches.submit('co-2', 3);
    await settle();
    expect(held.batches.map((b) => [b.companyId, b.items])).to.deep.equal([['co-1', [1]], ['co-2', [3]]]);
    held.batches[1]?.finish();
    expect(await other).to.equal('stored 3');
  });

  it('fails only the item whose outcome is an error, and every item of a batch whose store throws', async () => {
    const held = new HeldStore();
    const batches = new CompanyBatches(held.store, { concurrency: 1, maxItems: 10 });
    const first = batches.submit('co-1', 1);
    const rest = [2, 3, 4].map((item) => batches.submit('co-1', item).then((value) => ({ value }), (error: Error) => ({ error: error.message })));
    await settle();
    held.batches[0]?.finish(new Error('database gone'));
    await first.then(
      () => expect.fail('the batch failed'),
      (error: Error) => expect(error.message).to.equal('database gone'),
    );
    await settle();
    held.batches[1]?.finish([{ value: 'stored 2' }, { error: new Error('vacancy not found') }, { value: 'stored 4' }]);
    expect(await Promise.all(rest)).to.deep.equal([{ value: 'stored 2' }, { error: 'vacancy not found' }, { value: 'stored 4' }]);
  });

  it('fails the batch when the store answers with the wrong number of outcomes', async () => {
    const held = new HeldStore();
    const batches = new CompanyBatches(held.store, { concurrency: 1, maxItems: 10 });
    const answer = batches.submit('co-1', 1);
    await settle();
    held.batches[0]?.finish([]);
    await answer.then(
      () => expect.fail('a batch answered with no outcome must fail'),
      (error: Error) => expect(error.message).to.match(/1 items was answered with 0 outcomes/),
    );
  });

  describe('with places shared by several batchers', () => {
    it('cuts a batch when it gets its place, so that what its company receives while it waits joins it', async () => {
      const held = new HeldStore();
      const batches = new CompanyBatches(held.store, { concurrency: 1, maxItems: 3, places: new BoundedBatchPlaces(1) });
      const answers = [batches.submit('co-1', 1), batches.submit('co-2', 10)];
      await settle();
      expect(held.batches.map((b) => b.items), 'one place: co-2 waits for it').to.deep.equal([[1]]);
      answers.push(batches.submit('co-2', 11), batches.submit('co-2', 12), batches.submit('co-2', 13));
      held.batches[0]?.finish();
      await settle();
      expect(held.batches.map((b) => b.items), 'co-2\'s batch holds what came while it waited, up to maxItems').to.deep.equal([[1], [10, 11, 12]]);
      held.batches[1]?.finish();
      await settle();
      held.batches[2]?.finish();
      expect(await Promise.all(answers)).to.deep.equal(['stored 1', 'stored 10', 'stored 11', 'stored 12', 'stored 13']);
      expect(held.batches.map((b) => b.items)).to.deep.equal([[1], [10, 11, 12], [13]]);
    });

    it('gives the place back when a batch fails, and when a batch of the company took everything meanwhile', async () => {
      const held = new HeldStore();
      const places = new BoundedBatchPlaces(1);
      const batches = new CompanyBatches(held.store, { concurrency: 2, maxItems: 10, places });
      const failing = batches.submit('co-1', 1);
      const waiting = [batches.submit('co-1', 2), batches.submit('co-1', 3)];
      await settle();
      expect(held.batches.map((b) => b.items), 'the second runner of co-1 waits for the one place').to.deep.equal([[1]]);
      held.batches[0]?.finish(new Error('the store is away'));
      await failing.then(
        () => expect.fail('the batch failed'),
        (error: Error) => expect(error.message).to.equal('the store is away'),
      );
      await settle();
      expect(held.batches.map((b) => b.items), 'the place went on to the waiting items, in one batch').to.deep.equal([[1], [2, 3]]);
      held.batches[1]?.finish();
      expect(await Promise.all(waiting)).to.deep.equal(['stored 2', 'stored 3']);
      await settle();
      // Both runners of co-1 waited for the place; the one that got it second found nothing left and gave it back.
      const other = batches.submit('co-2', 20);
      await settle();
      expect(held.batches.map((b) => b.items).at(-1), 'the place is free again').to.deep.equal([20]);
      held.batches.at(-1)?.finish();
      expect(await other).to.equal('stored 20');
    });

    it('refuses fewer than one place', () => {
      expect(() => new BoundedBatchPlaces(0)).to.throw(RangeError);
      expect(() => new BoundedBatchPlaces(1.5)).to.throw(RangeError);
    });
  });
});
