import { expect } from 'chai';
import { withCurrentRenderings, type RenderedPageRow, type WholePageRow } from '../../../adapters/persistence/postgres/current-renderings.js';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms);
/** A rendering as the presenters end it, current at `updatedAt`. */
const renderedAt = (text: string, updatedAt: Date) => `${text},"updatedAt":"${updatedAt.toISOString()}"}`;

describe('withCurrentRenderings: a list page whose rows an instance of the previous version wrote (ADR 18)', () => {
  const current: RenderedPageRow = { id: 'a', updatedAt: at(1), rendering: renderedAt('"a"', at(1)) };
  const missing: RenderedPageRow = { id: 'b', updatedAt: at(2), rendering: null };
  const stale: RenderedPageRow = { id: 'c', updatedAt: at(3), rendering: renderedAt('"c old"', at(0)) };

  /** A row read whole, rendered from its columns as `text` at its position; `rendered` records which rows were. */
  const whole = (row: RenderedPageRow, text: string, rendered: string[]): WholePageRow<RenderedPageRow> => ({
    listed: row,
    render: () => {
      rendered.push(row.id);
      return renderedAt(text, row.updatedAt);
    },
  });

  /** A store whose two reads of the page are scripted, counting them. */
  function store(page: RenderedPageRow[], wholePage: (rendered: string[]) => WholePageRow<RenderedPageRow>[]) {
    const reads = { page: 0, whole: 0 };
    const rendered: string[] = [];
    return {
      reads,
      rendered,
      readPage: async () => {
        reads.page++;
        return page;
      },
      readWholePage: async () => {
        reads.whole++;
        return wholePage(rendered);
      },
    };
  }

  it('sends current renderings as stored and reads nothing more', async () => {
    const s = store([current], () => []);
    expect(await withCurrentRenderings(s.readPage, s.readWholePage)).to.deep.equal([current]);
    expect(s.reads).to.deep.equal({ page: 1, whole: 0 });
  });

  it('reads the page whole once more and renders the missing and stale ones from those rows, in the page\'s order', async () => {
    const s = store([current, missing, stale], (rendered) => [whole(current, '"a again"', rendered), whole(missing, '"b"', rendered), whole(stale, '"c"', rendered)]);
    const page = await withCurrentRenderings(s.readPage, s.readWholePage);
    expect(page.map((row) => row.rendering)).to.deep.equal([current.rendering, renderedAt('"b"', at(2)), renderedAt('"c"', at(3))]);
    expect(page.map((row) => row.updatedAt)).to.deep.equal([at(1), at(2), at(3)]);
    expect(s.rendered, 'a current row is not rendered again').to.deep.equal(['b', 'c']);
    expect(s.reads).to.deep.equal({ page: 1, whole: 1 });
  });

  it('takes the whole page as the second read finds it when rows were written, moved or deleted in between: one snapshot, no third read', async () => {
    const moved: RenderedPageRow = { id: 'b', updatedAt: at(9), rendering: null };
    const rewritten: RenderedPageRow = { id: 'c', updatedAt: at(4), rendering: renderedAt('"c new"', at(4)) };
    const s = store([current, missing, stale], (rendered) => [whole(current, '"a"', rendered), whole(rewritten, '"c"', rendered), whole(moved, '"b moved"', rendered)]);
    const page = await withCurrentRenderings(s.readPage, s.readWholePage);
    expect(page).to.deep.equal([current, rewritten, { ...moved, rendering: renderedAt('"b moved"', at(9)) }]);
    expect(s.rendered).to.deep.equal(['b']);

    const gone = store([current, missing], (rendered) => [whole(current, '"a"', rendered)]);
    expect(await withCurrentRenderings(gone.readPage, gone.readWholePage)).to.deep.equal([current]);
    expect(gone.reads).to.deep.equal({ page: 1, whole: 1 });
  });

  it('serves a page whose rows the second read still finds without a current rendering, rendering each from its row', async () => {
    const s = store([missing], (rendered) => [whole({ ...missing, updatedAt: at(7) }, '"b"', rendered)]);
    expect(await withCurrentRenderings(s.readPage, s.readWholePage)).to.deep.equal([{ id: 'b', updatedAt: at(7), rendering: renderedAt('"b"', at(7)) }]);
    expect(s.reads).to.deep.equal({ page: 1, whole: 1 });
  });
});
