import { expect } from 'chai';
import {
  ACTOR_MAX_LENGTH,
  KeyAlreadyRolledError,
  KeyNotActiveError,
  ROLL_OVERLAP_CLOCK_TOLERANCE_MS,
  ROLL_OVERLAP_DEFAULT_MS,
  ROLL_OVERLAP_MAX_MS,
  ServiceKey,
} from '../../../domain/service-key/service-key.js';
import { ACTOR_CHARACTERS_MESSAGE, normalizeActor } from '../../../domain/service-key/actor.js';
import { ValidationError } from '../../../domain/shared/domain-error.js';
import { at, T0 } from '../../support/builders.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

const HOUR = 3_600_000;

function issue(overrides: Partial<Parameters<typeof ServiceKey.issue>[0]> = {}): ServiceKey {
  return ServiceKey.issue({
    id: 'AbCdEf012345',
    companyId: 'co-1',
    name: 'career portal',
    scopes: ['vacancies:read'],
    secretHash: 'f'.repeat(64),
    expiresAt: null,
    now: T0,
    actor: 'aigerim@platform',
    ...overrides,
  });
}

describe('ServiceKey: actors, status and rolling', () => {
  it('keeps who issued it and what it replaced, and starts with no revoker and no successor', () => {
    const s = issue({ rolledFrom: 'OldKey000001' }).toSnapshot();
    expect(s).to.deep.include({ createdBy: 'aigerim@platform', revokedBy: null, rolledFrom: 'OldKey000001', rolledTo: null });
  });

  it('refuses an empty, overlong or control-character actor at /actor, and takes one of 200 characters', () => {
    for (const actor of ['', 'a'.repeat(ACTOR_MAX_LENGTH + 1), 'line\nbreak', 'tab\there', 'nul\u0000', 'del\u007f', 'c1\u0085']) {
      expect(pointersOf(thrownBy(() => issue({ actor }))), JSON.stringify(actor)).to.deep.equal(['/actor']);
    }
    expect(issue({ actor: 'я'.repeat(ACTOR_MAX_LENGTH) }).toSnapshot().createdBy).to.have.length(ACTOR_MAX_LENGTH);
  });

  it('refuses bidi controls, zero-width and other format characters, line and paragraph separators in an actor, saying so', () => {
    const invisible = ['\u202e', '\u2066', '\u200e', '\u200b', '\u200d', '\ufeff', '\u00ad', '\u2028', '\u2029'];
    for (const character of invisible) {
      const error = thrownBy(() => issue({ actor: `alice${character}@platform` }));
      expect(pointersOf(error), JSON.stringify(character)).to.deep.equal(['/actor']);
      const [problem] = (error as ValidationError).problems;
      expect(problem?.message).to.equal(ACTOR_CHARACTERS_MESSAGE);
      expect(pointersOf(thrownBy(() => issue().revoke(T0, `bob${character}`))), `revoke ${JSON.stringify(character)}`).to.deep.equal(['/actor']);
    }
    expect(ACTOR_CHARACTERS_MESSAGE).to.contain('control characters').and.contain('bidi').and.contain('zero-width').and.contain('line and paragraph separators');
  });

  it('stores the actor in NFC, on issue and on revocation, and counts its length in that form', () => {
    const decomposed = 'Zoe\u0308 Nurlanova';
    const key = issue({ actor: decomposed });
    expect(key.toSnapshot().createdBy).to.equal('Zo\u00eb Nurlanova');
    key.revoke(at(1_000), 'Ayge\u0301rim');
    expect(key.toSnapshot().revokedBy).to.equal('Ayg\u00e9rim');
    expect(normalizeActor(decomposed)).to.equal('Zo\u00eb Nurlanova');
    // 400 code points as typed, 200 once composed: the stored form is what the limit is about.
    expect(issue({ actor: 'e\u0301'.repeat(ACTOR_MAX_LENGTH) }).toSnapshot().createdBy).to.equal('\u00e9'.repeat(ACTOR_MAX_LENGTH));
  });

  it('keeps the first revocation and its actor when revoked again', () => {
    const key = issue();
    expect(key.revoke(at(1_000), 'first@platform')).to.deep.equal(at(1_000));
    expect(key.revoke(at(2_000), 'second@platform')).to.deep.equal(at(1_000));
    expect(key.toSnapshot()).to.deep.include({ revokedAt: at(1_000), revokedBy: 'first@platform' });
  });

  it('refuses a bad actor on revocation and stays unrevoked', () => {
    const key = issue();
    expect(pointersOf(thrownBy(() => key.revoke(at(1_000), '')))).to.deep.equal(['/actor']);
    expect(key.toSnapshot().revokedAt).to.equal(null);
  });

  it('is active, then expired at its expiry; revoked wins over expired', () => {
    const key = issue({ expiresAt: at(10_000) });
    expect(key.statusAt(at(9_999))).to.equal('active');
    expect(key.statusAt(at(10_000))).to.equal('expired');
    key.revoke(at(20_000), 'x');
    expect(key.statusAt(at(19_999))).to.equal('expired');
    expect(key.statusAt(at(20_000))).to.equal('revoked');
    expect(issue().statusAt(at(10 * 365 * 24 * HOUR))).to.equal('active');
  });

  it('rolls to a successor: sets rolledTo and the old expiry, still working until then', () => {
    const key = issue();
    key.rollTo('NewKey000001', at(ROLL_OVERLAP_DEFAULT_MS), T0);
    expect(key.toSnapshot()).to.deep.include({ rolledTo: 'NewKey000001', expiresAt: at(ROLL_OVERLAP_DEFAULT_MS) });
    expect(key.isUsableAt(at(ROLL_OVERLAP_DEFAULT_MS - 1))).to.equal(true);
    expect(key.isUsableAt(at(ROLL_OVERLAP_DEFAULT_MS))).to.equal(false);
  });

  it('never extends a key by a roll: an earlier own expiry is kept', () => {
    const key = issue({ expiresAt: at(HOUR) });
    key.rollTo('NewKey000001', at(2 * HOUR), T0);
    expect(key.toSnapshot().expiresAt).to.deep.equal(at(HOUR));
  });

  it('refuses to roll a revoked or expired key with key_not_active', () => {
    const revoked = issue();
    revoked.revoke(at(1_000), 'x');
    const expired = issue({ expiresAt: at(1_000) });
    for (const key of [revoked, expired]) {
      const error = thrownBy(() => key.rollTo('NewKey000001', at(HOUR), at(1_000)));
      expect(error).to.be.instanceOf(KeyNotActiveError);
      expect((error as KeyNotActiveError).code).to.equal('key_not_active');
      expect(key.toSnapshot().rolledTo).to.equal(null);
    }
  });

  it('refuses a second roll with key_already_rolled, naming the successor', () => {
    const key = issue();
    key.rollTo('NewKey000001', at(HOUR), T0);
    const error = thrownBy(() => key.rollTo('NewKey000002', at(HOUR), at(1_000)));
    expect(error).to.be.instanceOf(KeyAlreadyRolledError);
    expect(error).to.deep.include({ code: 'key_already_rolled', successorKeyId: 'NewKey000001' });
    expect(key.toSnapshot().rolledTo).to.equal('NewKey000001');
  });

  it('takes an old expiry up to 7 days ahead, and refuses now, the past and beyond 7 days and the tolerance at /oldKeyExpiresAt', () => {
    issue().rollTo('NewKey000001', at(ROLL_OVERLAP_MAX_MS), T0);
    for (const when of [T0, at(-1), at(ROLL_OVERLAP_MAX_MS + ROLL_OVERLAP_CLOCK_TOLERANCE_MS + 1)]) {
      const key = issue();
      expect(pointersOf(thrownBy(() => key.rollTo('NewKey000001', when, T0))), when.toISOString()).to.deep.equal(['/oldKeyExpiresAt']);
      expect(key.toSnapshot().rolledTo).to.equal(null);
    }
  });

  it('takes 7 days from a caller whose clock runs up to a minute ahead, and keeps the old key no longer than 7 days from now', () => {
    expect(ROLL_OVERLAP_CLOCK_TOLERANCE_MS).to.equal(60_000);
    for (const ahead of [1, 5, ROLL_OVERLAP_CLOCK_TOLERANCE_MS]) {
      const key = issue();
      key.rollTo('NewKey000001', at(ROLL_OVERLAP_MAX_MS + ahead), T0);
      expect(key.toSnapshot().expiresAt, `${ahead} ms ahead`).to.deep.equal(at(ROLL_OVERLAP_MAX_MS));
    }
  });

  it('keeps "in the future" strict: no tolerance for an old expiry at now or a moment before', () => {
    for (const when of [T0, at(-1), at(-ROLL_OVERLAP_CLOCK_TOLERANCE_MS)]) {
      expect(pointersOf(thrownBy(() => issue().rollTo('NewKey000001', when, T0))), when.toISOString()).to.deep.equal(['/oldKeyExpiresAt']);
    }
  });
});
