import { expect } from 'chai';
import type { ServiceKey } from '../../../domain/service-key/service-key.js';
import { KeyRegistryCache } from '../../../application/use-cases/key-registry-cache.js';

/** A registry whose reads wait until the test releases them, answering what it holds at the release. */
function aSlowRegistry() {
  const held = new Map<string, ServiceKey | null>();
  const waiting: Array<() => void> = [];
  let reads = 0;
  return {
    registry: {
      findById: (id: string) => {
        reads += 1;
        const answered = held.get(id) ?? null;
        return new Promise<ServiceKey | null>((done) => waiting.push(() => done(answered)));
      },
    },
    hold: (id: string, key: ServiceKey | null) => held.set(id, key),
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
    /** The later read answers first, as a read on another connection may. */
    releaseNewestFirst: () => waiting.splice(0).reverse().forEach((release) => release()),
    reads: () => reads,
  };
}

const STALE = { id: 'stale' } as unknown as ServiceKey;

describe('KeyRegistryCache.forget', () => {
  it('makes the next find read the registry again, within the TTL', async () => {
    const slow = aSlowRegistry();
    const cache = new KeyRegistryCache(slow.registry, 5_000);
    slow.hold('k', STALE);
    const first = cache.find('k', new Date(0));
    slow.releaseAll();
    expect(await first).to.equal(STALE);
    cache.forget('k');
    slow.hold('k', null);
    const second = cache.find('k', new Date(1));
    slow.releaseAll();
    expect(await second).to.equal(null);
    expect(slow.reads()).to.equal(2);
  });

  it('keeps nothing of a read that was under way when the key was forgotten, and does not join it', async () => {
    const slow = aSlowRegistry();
    const cache = new KeyRegistryCache(slow.registry, 5_000);
    slow.hold('k', STALE);
    const before = cache.find('k', new Date(0));
    cache.forget('k');
    slow.hold('k', null);
    const after = cache.find('k', new Date(1));
    slow.releaseNewestFirst();
    expect(await before, 'the request that came before the change').to.equal(STALE);
    expect(await after, 'the request after it reads anew').to.equal(null);
    const later = cache.find('k', new Date(2));
    expect(await later, 'the stale read was not kept').to.equal(null);
    expect(slow.reads()).to.equal(2);
  });
});
