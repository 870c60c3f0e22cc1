import { expect } from 'chai';
import { at, nextId } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { aKeyEvent, anIssuedKey, codeOf, rollOf } from './key-registry-fixtures.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

const HOUR = 3_600_000;
const page = { limit: 100, after: null };

/** ServiceKeyRepository.write and the audit fields of a key (issue 14). */
export function keyRegistryWriteContract(factory: AdapterFactory): void {
  describe(`ServiceKeyRepository.write and the audit fields (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('keeps createdBy, revokedBy, rolledFrom and rolledTo, and reads null for what was never set', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const unknownIssuer = anIssuedKey({ companyId, actor: null });
      const old = anIssuedKey({ companyId, actor: 'alice@platform' });
      await keys.insert(unknownIssuer);
      await keys.write({ inserted: [old] });
      const read = old.toSnapshot();
      const { successor, events } = rollOf(old, at(HOUR), at(2 * HOUR));
      await keys.write({ inserted: [successor], updated: [{ key: old, read }], events });
      successor.revoke(at(3 * HOUR), 'carol@platform');
      await keys.update(successor);

      const storedOld = (await keys.findById(old.id))?.toSnapshot();
      expect(storedOld).to.deep.equal(old.toSnapshot());
      expect(storedOld).to.include({ createdBy: 'alice@platform', rolledTo: successor.id, rolledFrom: null, revokedBy: null });
      expect(storedOld?.expiresAt?.toISOString()).to.equal(at(2 * HOUR).toISOString());
      const storedNew = (await keys.findById(successor.id))?.toSnapshot();
      expect(storedNew).to.deep.equal(successor.toSnapshot());
      expect(storedNew).to.include({ createdBy: 'bob@platform', rolledFrom: old.id, rolledTo: null, revokedBy: 'carol@platform' });
      expect((await keys.findById(unknownIssuer.id))?.toSnapshot()).to.include({ createdBy: null, revokedBy: null, rolledFrom: null, rolledTo: null });
      const listed = await keys.listByCompany(companyId);
      expect(listed.map((key) => key.toSnapshot())).to.deep.equal([unknownIssuer.toSnapshot(), old.toSnapshot(), successor.toSnapshot()]);
    });

    it('stores the keys and events of one write together', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId });
      const issued = aKeyEvent({ companyId, keyId: key.id, type: 'issued', at: at(0), actor: 'alice@platform', via: 'admin-cli' });
      await keys.write({ inserted: [key], events: [issued] });
      expect((await keys.findById(key.id))?.toSnapshot()).to.deep.equal(key.toSnapshot());
      expect(await keys.listEvents(companyId, page)).to.deep.equal([issued]);
    });

    it('stores nothing of a write whose guarded key changed since it was read: no new key, no event, no update', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const old = anIssuedKey({ companyId });
      await keys.insert(old);
      const stale = await keys.findById(old.id);
      const other = await keys.findById(old.id);
      if (stale === null || other === null) throw new Error('the key was inserted');
      other.revoke(at(HOUR / 2), 'carol@platform');
      await keys.update(other);

      const read = stale.toSnapshot();
      const { successor, events } = rollOf(stale, at(HOUR), at(2 * HOUR));
      const error = await rejectionOf(keys.write({ inserted: [successor], updated: [{ key: stale, read }], events }));

      expect(codeOf(error)).to.equal('key_changed');
      expect(await keys.findById(successor.id)).to.equal(null);
      expect(await keys.listEvents(companyId, page)).to.deep.equal([]);
      expect((await keys.findById(old.id))?.toSnapshot()).to.deep.equal(other.toSnapshot());
    });

    it('refuses a write whose key expiry or successor changed since it was read', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId, expiresAt: at(10 * HOUR) });
      await keys.insert(key);
      const read = key.toSnapshot();
      // Another roll stored since the read: the successor and the expiry differ.
      const first = (await keys.findById(key.id)) ?? key;
      const firstRead = first.toSnapshot();
      const firstRoll = rollOf(first, at(HOUR), at(3 * HOUR));
      await keys.write({ inserted: [firstRoll.successor], updated: [{ key: first, read: firstRead }], events: firstRoll.events });

      key.revoke(at(2 * HOUR), 'carol@platform');
      const revoked = aKeyEvent({ companyId, keyId: key.id, type: 'revoked', at: at(2 * HOUR), actor: 'carol@platform' });
      expect(codeOf(await rejectionOf(keys.write({ updated: [{ key, read }], events: [revoked] })))).to.equal('key_changed');
      expect((await keys.findById(key.id))?.toSnapshot()).to.deep.equal(first.toSnapshot());
      expect((await keys.listEvents(companyId, page)).map((event) => event.type).sort()).to.deep.equal(['issued', 'rolled']);
    });

    it('lets one of two writes from the same read win; the other is refused with key_changed and leaves nothing', async () => {
      const companyId = nextId('co');
      const { keys } = adapters();
      const key = anIssuedKey({ companyId });
      await keys.insert(key);
      const [a, b] = await Promise.all([keys.findById(key.id), keys.findById(key.id)]);
      if (a === null || b === null) throw new Error('the key was inserted');
      const read = a.toSnapshot();
      const rollA = rollOf(a, at(HOUR), at(2 * HOUR));
      const rollB = rollOf(b, at(HOUR), at(4 * HOUR));

      const outcomes = await Promise.allSettled([
        keys.write({ inserted: [rollA.successor], updated: [{ key: a, read }], events: rollA.events }),
        keys.write({ inserted: [rollB.successor], updated: [{ key: b, read }], events: rollB.events }),
      ]);

      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [codeOf(outcome.reason)] : []));
      expect(won).to.have.length(1);
      expect(refused).to.deep.equal(['key_changed']);
      const winner = outcomes[0]?.status === 'fulfilled' ? { key: a, roll: rollA } : { key: b, roll: rollB };
      const loser = winner.roll === rollA ? rollB : rollA;
      expect((await keys.findById(key.id))?.toSnapshot()).to.deep.equal(winner.key.toSnapshot());
      expect(await keys.findById(loser.successor.id)).to.equal(null);
      const stored = await keys.listEvents(companyId, page);
      expect(stored.map((event) => event.id).sort()).to.deep.equal(winner.roll.events.map((event) => event.id).sort());
    });
  });
}
