import { expect } from 'chai';
import { SyncProgress } from '../../adapters/cli/sync/sync-progress.js';
import { MemoryIo } from './support/memory-io.js';

class TerminalIo extends MemoryIo {
  override readonly errIsTerminal: boolean = true;
}

const page = (resource: 'vacancies' | 'candidates', page: number, records: number, received: number, last = false) =>
  ({ resource, mode: 'full', page, records, received, last }) as const;

describe('sync progress on stderr', () => {
  it('gives each page the records so far, the wall time of the pass in this run and the rate over it', () => {
    let now = 1_000;
    const io = new MemoryIo();
    const progress = new SyncProgress(io, () => now);
    now += 2_000;
    progress.page(page('vacancies', 1, 500, 500));
    now += 2_000;
    progress.page(page('vacancies', 2, 300, 800, true));
    // The next pass's time starts when the previous one ended, not at the start of the command.
    now += 500;
    progress.page(page('candidates', 1, 100, 100, true));
    expect(io.stderr.split('\n')).to.deep.equal([
      'vacancies (full pass): page 1, 500 records, 2.0 s, 250 records/s',
      'vacancies (full pass): page 2, 800 records, 4.0 s, 200 records/s, done',
      'candidates (full pass): page 1, 100 records, 0.5 s, 200 records/s, done',
      '',
    ]);
  });

  it('counts the pages and records of a pass resumed from a stopped run, and rates only what this run fetched', () => {
    let now = 0;
    const io = new MemoryIo();
    const progress = new SyncProgress(io, () => now);
    now += 1_000;
    progress.page(page('candidates', 5, 500, 2_500));
    expect(io.stderr).to.equal('candidates (full pass): page 5, 2500 records (500 in this run), 1.0 s, 500 records/s\n');
  });

  it('redraws one line in place on a terminal, at most ten times a second, and ends it when the pass is done', () => {
    let now = 0;
    const io = new TerminalIo();
    const progress = new SyncProgress(io, () => now);
    for (let i = 1; i <= 5; i++) {
      now += 10;
      progress.page(page('vacancies', i, 1, i));
    }
    now += 10;
    progress.page(page('vacancies', 6, 1, 6, true));
    const draws = io.stderr.split('\r').filter((d) => d !== '');
    expect(draws).to.have.length(2);
    expect(draws[0]).to.match(/^\[ . {2}\] vacancies \(full pass\): page 1, 1 records, 0\.0 s, 100 records\/s\u001b\[K$/);
    expect(draws[1]).to.equal('[done] vacancies (full pass): page 6, 6 records, 0.1 s, 100 records/s\u001b[K\n');
  });
});
