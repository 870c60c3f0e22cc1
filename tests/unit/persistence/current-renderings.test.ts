import { expect } from 'chai';
import { withCurrentRenderings, type RenderedPageRow, type Rerendered } from '../../../adapters/persistence/postgres/current-renderings.js';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms);
/** A rendering as the presenters end it, current at `updatedAt`. */
const renderedAt = (text: string, updatedAt: Date) => `${text},"updatedAt":"${updatedAt.toISOString()}"}`;

describe('withCurrentRenderings: a list page whose rows an instance of the previous version wrote (ADR 18)', () => {
  const current: RenderedPageRow = { id: 'a', updatedAt: at(1), rendering: renderedAt('"a"', at(1)) };
  const missing: RenderedPageRow = { id: 'b', updatedAt: at(2), rendering: null };
  const stale: RenderedPageRow = { id: 'c', updatedAt: at(3), rendering: renderedAt('"c old"', at(0)) };

  /** A store whose pages and re-reads are scripted, recording what is asked of it. */
  function store(pages: RenderedPageRow[][], rows: ReadonlyMap<string, Rerendered>[]) {
    const asked: string[][] = [];
    let pageReads = 0;
    return {
      asked,
      pageReads: () => pageReads,
      readPage: async () => pages[Math.min(pageReads++, pages.length - 1)] as RenderedPageRow[],
      rerender: async (ids: readonly string[]) => {
        asked.push([...ids]);
        return rows[Math.min(asked.length - 1, rows.length - 1)] as ReadonlyMap<string, Rerendered>;
      },
    };
  }

  it('sends current renderings as stored and reads nothing more', async () => {
    const s = store([[current]], []);
    expect(await withCurrentRenderings(s.readPage, s.rerender)).to.deep.equal([current]);
    expect(s.asked).to.deep.equal([]);
  });

  it('renders the missing and stale ones from their rows, read in one call, in the page\'s order', async () => {
    const fresh = new Map([
      ['b', { updatedAt: at(2), rendering: renderedAt('"b"', at(2)) }],
      ['c', { updatedAt: at(3), rendering: renderedAt('"c"', at(3)) }],
    ]);
    const s = store([[current, missing, stale]], [fresh]);
    const page = await withCurrentRenderings(s.readPage, s.rerender);
    expect(page.map((row) => row.rendering)).to.deep.equal([current.rendering, renderedAt('"b"', at(2)), renderedAt('"c"', at(3))]);
    expect(page.map((row) => row.updatedAt)).to.deep.equal([at(1), at(2), at(3)]);
    expect(s.asked).to.deep.equal([['b', 'c']]);
  });

  it('reads the page again when a row re-read was written or deleted after the page was read', async () => {
    const moved = new Map([['b', { updatedAt: at(9), rendering: renderedAt('"b"', at(9)) }]]);
    const gone = new Map<string, Rerendered>();
    const after: RenderedPageRow = { id: 'b', updatedAt: at(9), rendering: renderedAt('"b"', at(9)) };
    for (const rows of [moved, gone]) {
      const s = store([[current, missing], [current]], [rows]);
      expect(await withCurrentRenderings(s.readPage, s.rerender)).to.deep.equal([current]);
      expect(s.pageReads()).to.equal(2);
      const t = store([[missing, current], [current, after]], [rows]);
      expect(await withCurrentRenderings(t.readPage, t.rerender)).to.deep.equal([current, after]);
    }
  });

  it('gives up after three reads of a page whose rows keep changing under it', async () => {
    const s = store([[missing]], [new Map()]);
    const failure = await withCurrentRenderings(s.readPage, s.rerender).then(() => null, (error: Error) => error.message);
    expect(failure).to.match(/kept changing/);
    expect(s.pageReads()).to.equal(3);
  });
});
