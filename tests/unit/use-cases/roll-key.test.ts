import { expect } from 'chai';
import { ADMIN_CLI_ACTOR, type Actor } from '../../../application/use-cases/actor.js';
import { parseServiceKey } from '../../../domain/service-key/service-key-format.js';
import { KeyAlreadyRolledError, KeyNotActiveError, ROLL_OVERLAP_CLOCK_TOLERANCE_MS, ROLL_OVERLAP_DEFAULT_MS, ROLL_OVERLAP_MAX_MS } from '../../../domain/service-key/service-key.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { at } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

const BOB: Actor = { name: 'bob@platform', via: 'platform-token:Tok0Ab1Cd2Ef' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('RollKey (a new key, the old one working on for a while)', () => {
  const world = withWorld();

  async function issued(expiresAt: Date | null = null) {
    const companyId = await world().company();
    const key = await world().use('issueKey').execute({ companyId, name: 'витрина', scopes: ['candidates:read', 'vacancies:read'], expiresAt, actor: ADMIN_CLI_ACTOR });
    return { companyId, key };
  }

  const roll = (companyId: string, keyId: string, params: { oldKeyExpiresAt?: Date | null; expiresAt?: Date | null; actor?: Actor } = {}) =>
    world().use('rollKey').execute({ companyId, keyId, oldKeyExpiresAt: params.oldKeyExpiresAt ?? null, expiresAt: params.expiresAt, actor: params.actor ?? BOB });

  it('issues a successor with the same name and scopes and its secret once; the old key expires 24 h later by default', async () => {
    const { companyId, key } = await issued();
    world().clock.set(at(1_000));
    const { issued: successor, rolled } = await roll(companyId, key.id);
    expect(successor).to.deep.include({ name: 'витрина', scopes: ['vacancies:read', 'candidates:read'], companyId, createdBy: 'bob@platform', rolledFrom: key.id });
    expect(parseServiceKey(successor.key)?.keyId).to.equal(successor.id);
    expect(successor.id).to.not.equal(key.id);
    expect(rolled).to.deep.include({ id: key.id, status: 'active', rolledTo: successor.id, expiresAt: at(1_000 + ROLL_OVERLAP_DEFAULT_MS), revokedAt: null });
    expect(rolled).to.not.have.property('secretHash');
  });

  it('lets both keys work until the old expiry, then only the new one', async () => {
    const { companyId, key } = await issued();
    const { issued: successor } = await roll(companyId, key.id, { oldKeyExpiresAt: at(HOUR) });
    const authenticate = (presentedKey: string) => world().use('authenticateKey').execute({ presentedKey });
    world().clock.set(at(HOUR - 1));
    expect((await authenticate(key.key)).keyId).to.equal(key.id);
    expect((await authenticate(successor.key)).keyId).to.equal(successor.id);
    world().clock.set(at(HOUR));
    expect(await rejectionOf(authenticate(key.key))).to.have.property('code', 'unauthorized');
    expect((await authenticate(successor.key)).keyId).to.equal(successor.id);
  });

  it('records rolled on the old key and issued on the new one, by the actor, at one moment', async () => {
    const { companyId, key } = await issued();
    world().clock.set(at(5_000));
    const { issued: successor } = await roll(companyId, key.id, { oldKeyExpiresAt: at(HOUR), expiresAt: at(48 * HOUR) });
    const { items } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    const mine = items.filter((e) => e.at.getTime() === at(5_000).getTime());
    expect(mine.map(({ id: _id, ...e }) => e)).to.have.deep.members([
      { keyId: key.id, type: 'rolled', at: at(5_000), actor: 'bob@platform', via: BOB.via, successorKeyId: successor.id, expiresAt: at(HOUR) },
      { keyId: successor.id, type: 'issued', at: at(5_000), actor: 'bob@platform', via: BOB.via, successorKeyId: null, expiresAt: null },
    ]);
    expect(successor.expiresAt).to.deep.equal(at(48 * HOUR));
  });

  it("gives the successor, when its expiry is left out, the old key's lifetime as issued (not as the roll shortens it), from now", async () => {
    const { companyId, key } = await issued(at(30 * DAY));
    world().clock.set(at(5_000));
    const { issued: successor, rolled } = await roll(companyId, key.id, { oldKeyExpiresAt: at(HOUR) });
    expect(rolled.expiresAt, 'the old key, shortened by the roll').to.deep.equal(at(HOUR));
    expect(successor.expiresAt).to.deep.equal(at(5_000 + 30 * DAY));
    expect(world().database.serviceKeys.get(successor.id)?.expiresAt).to.deep.equal(at(5_000 + 30 * DAY));
  });

  it('gives the successor no expiry when the old key had none and the expiry is left out, or when null says so', async () => {
    const forever = await issued();
    expect((await roll(forever.companyId, forever.key.id)).issued.expiresAt).to.equal(null);
    const expiring = await issued(at(30 * DAY));
    expect((await roll(expiring.companyId, expiring.key.id, { expiresAt: null })).issued.expiresAt, 'null: never, said explicitly').to.equal(null);
    const given = await issued(at(30 * DAY));
    expect((await roll(given.companyId, given.key.id, { expiresAt: at(2 * DAY) })).issued.expiresAt, 'a moment: that one').to.deep.equal(at(2 * DAY));
  });

  it('takes 7 days and a few ms from a caller whose clock runs ahead, and records the old key ending 7 days from now', async () => {
    const { companyId, key } = await issued();
    world().clock.set(at(1_000));
    const { rolled } = await roll(companyId, key.id, { oldKeyExpiresAt: at(1_000 + ROLL_OVERLAP_MAX_MS + 7) });
    expect(rolled.expiresAt).to.deep.equal(at(1_000 + ROLL_OVERLAP_MAX_MS));
    const { items } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(items.find((e) => e.type === 'rolled')?.expiresAt).to.deep.equal(at(1_000 + ROLL_OVERLAP_MAX_MS));
  });

  it('never extends the old key: its earlier expiry is kept and is the one recorded', async () => {
    const { companyId, key } = await issued(at(HOUR));
    const { rolled } = await roll(companyId, key.id, { oldKeyExpiresAt: at(2 * HOUR) });
    expect(rolled.expiresAt).to.deep.equal(at(HOUR));
    const { items } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(items.find((e) => e.type === 'rolled')?.expiresAt).to.deep.equal(at(HOUR));
  });

  it('refuses a revoked or expired key with key_not_active, and a second roll with key_already_rolled, storing nothing', async () => {
    const { companyId, key } = await issued(at(HOUR));
    const other = await world().use('issueKey').execute({ companyId, name: 'b', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    await world().use('revokeKey').execute({ keyId: other.id, actor: ADMIN_CLI_ACTOR });
    expect(await rejectionOf(roll(companyId, other.id))).to.be.instanceOf(KeyNotActiveError);
    await roll(companyId, key.id, { oldKeyExpiresAt: at(HOUR / 2) });
    const keysBefore = await world().use('listKeys').execute({ companyId });
    expect(await rejectionOf(roll(companyId, key.id))).to.be.instanceOf(KeyAlreadyRolledError);
    world().clock.set(at(HOUR));
    const third = await world().use('issueKey').execute({ companyId, name: 'c', scopes: ['vacancies:read'], expiresAt: at(HOUR + 1), actor: ADMIN_CLI_ACTOR });
    world().clock.set(at(HOUR + 1));
    expect(await rejectionOf(roll(companyId, third.id))).to.be.instanceOf(KeyNotActiveError);
    expect((await world().use('listKeys').execute({ companyId })).slice(0, keysBefore.length).map((k) => k.id)).to.deep.equal(keysBefore.map((k) => k.id));
    expect(await world().use('listKeys').execute({ companyId })).to.have.length(keysBefore.length + 1);
  });

  it('does not find a key of another company, and changes nothing', async () => {
    const { key } = await issued();
    const stranger = await world().company('Чужая');
    expect(await rejectionOf(roll(stranger, key.id))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(roll(stranger, 'AAAAAAAAAAAA'))).to.be.instanceOf(NotFoundError);
    expect(world().database.serviceKeys.get(key.id)?.rolledTo).to.equal(null);
  });

  it('names every bad input at once: the old expiry (past or beyond 7 days), the new expiry, the actor', async () => {
    const { companyId, key } = await issued();
    world().clock.set(at(1_000));
    const beyond = at(1_000 + ROLL_OVERLAP_MAX_MS + ROLL_OVERLAP_CLOCK_TOLERANCE_MS + 1);
    const error = await rejectionOf(roll(companyId, key.id, { oldKeyExpiresAt: beyond, expiresAt: at(1_000), actor: { name: '', via: 'x' } }));
    expect(error).to.be.instanceOf(ValidationError);
    expect(pointersOf(error)).to.deep.equal(['/oldKeyExpiresAt', '/expiresAt', '/actor']);
    expect(pointersOf(await rejectionOf(roll(companyId, key.id, { oldKeyExpiresAt: at(1_000) })))).to.deep.equal(['/oldKeyExpiresAt']);
    expect([...world().database.serviceKeys.values()]).to.have.length(1);
  });

  it('gives one successor to two rolls at once: the other is refused as already rolled', async () => {
    const { companyId, key } = await issued();
    const results = await Promise.allSettled([roll(companyId, key.id), roll(companyId, key.id)]);
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).to.have.length(1);
    // The second write finds the key changed since its read, reads again and sees the successor.
    expect(rejected).to.have.length(1);
    expect(rejected[0]?.reason).to.be.instanceOf(KeyAlreadyRolledError);
    const rolledEvents = (await world().use('listKeyEvents').execute({ companyId, cursor: null })).items.filter((e) => e.type === 'rolled');
    expect(rolledEvents).to.have.length(1);
    expect(await world().use('listKeys').execute({ companyId })).to.have.length(2);
  });
});
