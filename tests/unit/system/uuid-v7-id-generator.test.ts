import { expect } from 'chai';
import { validate, version } from 'uuid';
import { UuidV7IdGenerator } from '../../../adapters/system/uuid-v7-id-generator.js';

/** Runs `work` with Date.now answering `ms`, then gives the real clock back. */
function atClock<T>(ms: number, work: () => T): T {
  const real = Date.now;
  Date.now = () => ms;
  try {
    return work();
  } finally {
    Date.now = real;
  }
}

/** The milliseconds an id carries (its first 48 bits). */
function msOf(id: string): number {
  return Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

describe('UuidV7IdGenerator', () => {
  it('makes valid version 7 ids, all different, past several refills of its random bytes', () => {
    const ids = new UuidV7IdGenerator();
    const made = Array.from({ length: 5_000 }, () => ids.newId());
    for (const id of made.slice(0, 300)) {
      expect(validate(id), id).to.equal(true);
      expect(version(id)).to.equal(7);
      expect('89ab').to.include(id.charAt(19));
    }
    expect(new Set(made).size).to.equal(made.length);
  });

  it('makes ids that sort in the order they were made, within one millisecond and across instances', () => {
    const [a, b] = [new UuidV7IdGenerator(), new UuidV7IdGenerator()];
    const made = atClock(Date.now(), () => Array.from({ length: 1_000 }, (_, i) => (i % 2 === 0 ? a : b).newId()));
    expect([...made].sort()).to.deep.equal(made);
    expect(msOf(made[0] as string)).to.equal(msOf(made.at(-1) as string));
  });

  it('keeps counting on while the clock stands behind the last id, and carries the time of the last id', () => {
    const ids = new UuidV7IdGenerator();
    const now = Date.now();
    const first = atClock(now, () => ids.newId());
    const behind = atClock(now - 5_000, () => [ids.newId(), ids.newId()]);
    expect([first, ...behind]).to.deep.equal([first, ...behind].sort());
    expect(new Set([first, ...behind]).size).to.equal(3);
    for (const id of behind) expect(msOf(id)).to.equal(now);
  });

  it('stamps the current time once the clock has moved on', () => {
    const ids = new UuidV7IdGenerator();
    // A few ms ahead only: the generator's clock is the whole process's, other tests' ids included.
    const later = Date.now() + 3;
    const id = atClock(later, () => ids.newId());
    expect(msOf(id)).to.equal(later);
  });
});
