import { expect } from 'chai';
import fc from 'fast-check';
import { renderPage } from '../../../adapters/presenters/page.presenter.js';
import { decodeCursor, queryFingerprint } from '../../../domain/paging/cursor.js';
import { cutPage } from '../../../domain/paging/page-budget.js';

const FP = queryFingerprint(['candidates', 'company-1', null, null]);

interface Row {
  readonly id: string;
  readonly at: Date;
  /** The item's JSON text. */
  readonly text: string;
}

const row = (id: string, n: number, text = `{"id":"${id}"}`): Row => ({ id, at: new Date(1_000 + n), text });
const cut = (rows: readonly Row[], limit: number, maxBytes: number) =>
  cutPage({ rows, limit, maxBytes, bytesOf: (r) => Buffer.byteLength(r.text), positionOf: (r) => ({ modifiedAt: r.at, id: r.id }), fingerprint: FP });
const body = (items: readonly Row[], nextCursor: string | null) => renderPage(items.map((r) => r.text), nextCursor);
const LARGE = 1 << 30;

describe('cutPage', () => {
  const rows = ['a', 'b', 'c', 'd'].map((id, n) => row(id, n));

  it('gives a next cursor at the last item when there is one row more than the limit', () => {
    const page = cut(rows, 3, LARGE);
    expect(page.items.map((r) => r.id)).to.deep.equal(['a', 'b', 'c']);
    expect(decodeCursor(page.nextCursor as string, FP)).to.deep.equal({ modifiedAt: new Date(1002), id: 'c' });
  });

  it('gives a null next cursor exactly on the last page: rows up to the limit, or none', () => {
    expect(cut(rows, 4, LARGE).nextCursor).to.equal(null);
    expect(cut(rows, 5, LARGE).nextCursor).to.equal(null);
    expect(cut(rows.slice(0, 3), 3, LARGE)).to.deep.include({ nextCursor: null });
    expect(cut([], 3, LARGE)).to.deep.equal({ items: [], nextCursor: null });
  });

  it('ends the page before the item that would take its body past the budget, and gives the cursor of its last item', () => {
    const big = ['a', 'b', 'c', 'd'].map((id, n) => row(id, n, JSON.stringify('я'.repeat(1_000))));
    const firstTwo = cut(big, 2, LARGE);
    const two = body(firstTwo.items, firstTwo.nextCursor).length;
    const page = cut(big, 10, two + 100);
    expect(page.items.map((r) => r.id)).to.deep.equal(['a', 'b']);
    expect(decodeCursor(page.nextCursor as string, FP)).to.deep.equal({ modifiedAt: new Date(1001), id: 'b' });
    expect(body(page.items, page.nextCursor).length).to.be.at.most(two + 100);
  });

  it('sends a first item larger than the budget alone, with the cursor after it', () => {
    const big = [row('a', 0, JSON.stringify('x'.repeat(5_000))), row('b', 1)];
    const page = cut(big, 10, 1_024);
    expect(page.items.map((r) => r.id)).to.deep.equal(['a']);
    expect(decodeCursor(page.nextCursor as string, FP)).to.deep.equal({ modifiedAt: new Date(1000), id: 'a' });
    expect(cut(big.slice(0, 1), 10, 1_024)).to.deep.include({ nextCursor: null });
  });

  it('holds every page to its budget to the byte, and ends it only where the next item would not fit', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'я', '€', '😀', '"'), maxLength: 400 }).map((s) => JSON.stringify(s));
    const rowsOf = fc.array(text, { maxLength: 12 }).map((texts) => texts.map((t, n) => row(`id-${'z'.repeat(n * 5)}${n}`, n, t)));
    fc.assert(
      fc.property(rowsOf, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 20, max: 4_000 }), (all, limit, maxBytes) => {
        const page = cut(all, limit, maxBytes);
        const shown = Math.min(limit, all.length);
        expect(page.items).to.deep.equal(all.slice(0, page.items.length));
        expect(page.items.length).to.be.within(Math.min(1, shown), shown);
        expect(page.nextCursor === null).to.equal(page.items.length === all.length);
        const bytes = body(page.items, page.nextCursor).length;
        if (page.items.length > 1) expect(bytes).to.be.at.most(maxBytes);
        if (page.items.length < shown) {
          const longer = cut(all, page.items.length + 1, LARGE);
          expect(body(longer.items, longer.nextCursor).length).to.be.above(maxBytes);
        }
      }),
    );
  });
});
