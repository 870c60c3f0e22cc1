import { expect } from 'chai';
import type { KeyEvent } from '../../domain/service-key/key-event.js';
import { at, nextId } from '../support/builders.js';
import { aKeyEvent, aKeyId, anIssuedKey } from './key-registry-fixtures.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

const all = { limit: 100, after: null };

/** The key events of ServiceKeyRepository: usage, the once-per-key events, the trail's order and paging. */
export function keyEventsContract(factory: AdapterFactory): void {
  describe(`ServiceKeyRepository key events (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('stores the first use with the first recorded usage only, and still never moves lastUsedAt back', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId });
      await keys.insert(key);
      const first = aKeyEvent({ companyId, keyId: key.id, type: 'first_used', at: at(1_000) });
      await keys.recordUsage(key.id, at(1_000), first);
      await keys.recordUsage(key.id, at(90_000), aKeyEvent({ companyId, keyId: key.id, type: 'first_used', at: at(90_000) }));
      await keys.recordUsage(key.id, at(30_000), aKeyEvent({ companyId, keyId: key.id, type: 'first_used', at: at(30_000) }));

      expect(await keys.listEvents(companyId, all)).to.deep.equal([first]);
      expect((await keys.findById(key.id))?.toSnapshot().lastUsedAt?.toISOString()).to.equal(at(90_000).toISOString());
    });

    it('stores no first use for a key whose use was recorded before, nor for an unknown key', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId });
      await keys.insert(key);
      await keys.recordUsage(key.id, at(1_000));
      await keys.recordUsage(key.id, at(90_000), aKeyEvent({ companyId, keyId: key.id, type: 'first_used', at: at(90_000) }));
      const ghost = aKeyId();
      await keys.recordUsage(ghost, at(1_000), aKeyEvent({ companyId, keyId: ghost, type: 'first_used', at: at(1_000) }));

      expect(await keys.listEvents(companyId, all)).to.deep.equal([]);
      expect((await keys.findById(key.id))?.toSnapshot().lastUsedAt?.toISOString()).to.equal(at(90_000).toISOString());
      expect(await keys.findById(ghost)).to.equal(null);
    });

    it('refuses a first use that is not a first_used event of the same key, storing nothing and moving nothing', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const [key, other] = [anIssuedKey({ companyId }), anIssuedKey({ companyId })];
      for (const each of [key, other]) await keys.insert(each);
      const wrong = [
        aKeyEvent({ companyId, keyId: key.id, type: 'revoked', at: at(1_000), actor: 'carol' }),
        aKeyEvent({ companyId, keyId: key.id, type: 'expired', at: at(1_000), expiresAt: at(500) }),
        aKeyEvent({ companyId, keyId: other.id, type: 'first_used', at: at(1_000) }),
      ];
      for (const event of wrong) {
        let refused = false;
        await keys.recordUsage(key.id, at(1_000), event).catch(() => (refused = true));
        expect(refused, `${event.type} of ${event.keyId === key.id ? 'the key' : 'another key'}`).to.equal(true);
      }

      expect(await keys.listEvents(companyId, all)).to.deep.equal([]);
      for (const each of [key, other]) expect((await keys.findById(each.id))?.toSnapshot().lastUsedAt).to.equal(null);
    });

    it('stores one first use when two first usages are recorded at once', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId });
      await keys.insert(key);
      const candidates = [at(1_000), at(1_001), at(1_002)].map((moment) => aKeyEvent({ companyId, keyId: key.id, type: 'first_used', at: moment }));
      await Promise.all(candidates.map((event) => keys.recordUsage(key.id, event.at, event)));

      const stored = await keys.listEvents(companyId, all);
      expect(stored).to.have.length(1);
      expect(candidates.map((event) => event.id)).to.include(stored[0]?.id);
      expect((await keys.findById(key.id))?.toSnapshot().lastUsedAt?.toISOString()).to.equal(at(1_002).toISOString());
    });

    it('records an expired or first_used event once per key and type, also when asked at once', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const [one, two] = [anIssuedKey({ companyId }), anIssuedKey({ companyId })];
      for (const key of [one, two]) await keys.insert(key);
      const expiredOne = aKeyEvent({ companyId, keyId: one.id, type: 'expired', at: at(5_000), expiresAt: at(4_000) });
      await keys.recordEventOnce(expiredOne);
      await keys.recordEventOnce(aKeyEvent({ companyId, keyId: one.id, type: 'expired', at: at(6_000), expiresAt: at(4_000) }));
      const usedOne = aKeyEvent({ companyId, keyId: one.id, type: 'first_used', at: at(1_000) });
      await keys.recordEventOnce(usedOne);
      await keys.recordUsage(one.id, at(2_000), aKeyEvent({ companyId, keyId: one.id, type: 'first_used', at: at(2_000) }));
      const racing = [at(7_000), at(7_001)].map((moment) => aKeyEvent({ companyId, keyId: two.id, type: 'expired', at: moment, expiresAt: at(6_500) }));
      await Promise.all(racing.map((event) => keys.recordEventOnce(event)));

      const stored = await keys.listEvents(companyId, all);
      // Newest first in the order recorded: the first use, stamped earlier, was recorded after the expiry.
      expect(stored.filter((event) => event.keyId === one.id)).to.deep.equal([usedOne, expiredOne]);
      const ofTwo = stored.filter((event) => event.keyId === two.id);
      expect(ofTwo).to.have.length(1);
      expect(racing.map((event) => event.id)).to.include(ofTwo[0]?.id);
    });

    it('refuses to record an event that a key can have many of as a once-per-key event, storing nothing', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId });
      await keys.insert(key);
      const revoked = aKeyEvent({ companyId, keyId: key.id, type: 'revoked', at: at(1_000), actor: 'carol' });
      let refused = false;
      await keys.recordEventOnce(revoked).catch(() => (refused = true));
      expect(refused).to.equal(true);
      expect(await keys.listEvents(companyId, all)).to.deep.equal([]);
    });

    it('lists a company\'s events newest first in the order they were recorded, not by time, with every field as written', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const keyId = aKeyId();
      const successorKeyId = aKeyId();
      const [e1, e2, e3, e4] = [nextId('ev'), nextId('ev'), nextId('ev'), nextId('ev')];
      const issued = aKeyEvent({ id: e1, companyId, keyId, type: 'issued', at: at(1_000), actor: 'Алия Н. <aliya@example.kz>', via: 'admin-cli' });
      const rolled = aKeyEvent({
        id: e2, companyId, keyId, type: 'rolled', at: at(2_000), actor: 'bob', via: 'platform-token:tok000000001', successorKeyId, expiresAt: at(86_402_000),
      });
      const issuedNext = aKeyEvent({ id: e3, companyId, keyId: successorKeyId, type: 'issued', at: at(2_000), actor: 'bob', via: 'platform-token:tok000000001' });
      const revoked = aKeyEvent({ id: e4, companyId, keyId, type: 'revoked', at: at(1_500), actor: 'carol', via: 'admin-cli' });
      const foreign = aKeyEvent({ companyId: nextId('co'), keyId, type: 'revoked', at: at(1_700) });
      await keys.write({ events: [issued, foreign, rolled] });
      await keys.write({ events: [revoked, issuedNext] });

      // Recorded later, `revoked` comes above `rolled` whatever its time; one write's events in the order given.
      expect(await keys.listEvents(companyId, all)).to.deep.equal([issuedNext, revoked, rolled, issued]);
      expect(await keys.listEvents(nextId('co'), all)).to.deep.equal([]);
    });

    it('pages the trail by the last event of the previous page, without a repeat or a gap, whatever the times', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const keyId = aKeyId();
      // Seven events over four moments (three share one), recorded last first in one change: newest first,
      // the trail gives them back as `events`, in no order of time.
      const moments = [3_000, 1_000, 3_000, 2_000, 3_000, 4_000, 1_000];
      const events = moments.map((ms) => aKeyEvent({ companyId, keyId, type: 'issued', at: at(ms) }));
      await keys.write({ events: [...events].reverse() });
      const foreign = aKeyEvent({ companyId: nextId('co'), keyId, type: 'issued', at: at(2_500) });
      await keys.write({ events: [foreign] });
      const expected = events.map((event) => event.id);

      const seen: string[] = [];
      let after: KeyEvent | null = null;
      for (let pages = 0; pages < 10; pages += 1) {
        const items = await keys.listEvents(companyId, { limit: 2, after: after === null ? null : after.id });
        seen.push(...items.map((event) => event.id));
        if (items.length < 2) break;
        after = items[items.length - 1] ?? null;
      }
      expect(seen).to.deep.equal(expected);
      const last = events.find((event) => event.id === expected[expected.length - 1]) as KeyEvent;
      expect(await keys.listEvents(companyId, { limit: 2, after: last.id })).to.deep.equal([]);
      expect(await keys.listEvents(companyId, { limit: 2, after: nextId('ev') }), 'after an unknown event').to.deep.equal([]);
      expect(await keys.listEvents(companyId, { limit: 2, after: foreign.id }), "after another company's event").to.deep.equal([]);
    });
  });
}
