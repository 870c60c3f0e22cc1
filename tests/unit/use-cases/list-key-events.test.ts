import { expect } from 'chai';
import { ADMIN_CLI_ACTOR, type Actor } from '../../../application/use-cases/actor.js';
import type { KeyEventListing } from '../../../application/use-cases/list-key-events.use-case.js';
import { InvalidCursorError } from '../../../domain/paging/cursor.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { at } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

const ALICE: Actor = { name: 'alice@platform', via: 'platform-token:Tok0Ab1Cd2Ef' };

describe('ListKeyEvents (the key trail)', () => {
  const world = withWorld();

  async function issue(companyId: string, actor: Actor = ALICE) {
    return world().use('issueKey').execute({ companyId, name: 'k', scopes: ['vacancies:read'], expiresAt: null, actor });
  }

  async function everyEvent(companyId: string, limit: number): Promise<KeyEventListing[]> {
    const all: KeyEventListing[] = [];
    let cursor: string | null = null;
    do {
      const page = await world().use('listKeyEvents').execute({ companyId, limit, cursor });
      expect(page.items.length).to.be.at.most(limit);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return all;
  }

  it('lists issued and revoked events newest first, with actor and channel, without the company', async () => {
    const companyId = await world().company();
    const key = await issue(companyId);
    world().clock.set(at(1_000));
    await world().use('revokeKey').execute({ keyId: key.id, actor: ADMIN_CLI_ACTOR });
    const { items, nextCursor } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(nextCursor).to.equal(null);
    expect(items.map(({ id: _id, ...e }) => e)).to.deep.equal([
      { keyId: key.id, type: 'revoked', at: at(1_000), actor: 'admin-cli', via: 'admin-cli', successorKeyId: null, expiresAt: null },
      { keyId: key.id, type: 'issued', at: at(0), actor: 'alice@platform', via: ALICE.via, successorKeyId: null, expiresAt: null },
    ]);
    expect(items[0]).to.not.have.property('companyId');
  });

  it('names the actor of an event in NFC, as the key names its issuer and revoker', async () => {
    const companyId = await world().company();
    const key = await issue(companyId, { name: 'Zoe\u0308', via: ALICE.via });
    await world().use('revokeKey').execute({ keyId: key.id, actor: { name: 'Ayge\u0301rim', via: ALICE.via } });
    const { items } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(items.map((e) => [e.type, e.actor])).to.deep.equal([['revoked', 'Ayg\u00e9rim'], ['issued', 'Zo\u00eb']]);
    expect(key.createdBy).to.equal('Zo\u00eb');
  });

  it('pages by cursor through every event once, newest recorded first, whatever the page size; 50 by default', async () => {
    const companyId = await world().company();
    const issued: string[] = [];
    for (let n = 0; n < 60; n++) {
      // Some events share a moment, and the clock goes back now and then: the order is that of recording.
      world().clock.set(at(((n * 7) % 20) * 1_000));
      issued.push((await issue(companyId)).id);
    }
    const first = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(first.items).to.have.length(50);
    expect(first.nextCursor).to.be.a('string');
    const reference = await everyEvent(companyId, 100);
    expect(reference).to.have.length(60);
    expect(reference.map((e) => e.keyId)).to.deep.equal([...issued].reverse());
    for (const limit of [1, 7, 50]) expect((await everyEvent(companyId, limit)).map((e) => e.id), `limit ${limit}`).to.deep.equal(reference.map((e) => e.id));
  });

  it('shows no event of another company', async () => {
    const [a, b] = [await world().company('A'), await world().company('B')];
    await issue(a);
    expect((await world().use('listKeyEvents').execute({ companyId: b, cursor: null })).items).to.deep.equal([]);
  });

  it("refuses a cursor of another company's events with InvalidCursorError (DESIGN 3: a cursor belongs to its query)", async () => {
    const [a, b] = [await world().company('A'), await world().company('B')];
    for (let n = 0; n < 2; n++) await issue(a);
    await issue(b);
    const { nextCursor } = await world().use('listKeyEvents').execute({ companyId: a, limit: 1, cursor: null });
    if (nextCursor === null) throw new Error('two events, one a page: there is a next page');
    expect(await rejectionOf(world().use('listKeyEvents').execute({ companyId: b, limit: 1, cursor: nextCursor }))).to.be.instanceOf(InvalidCursorError);
    expect((await world().use('listKeyEvents').execute({ companyId: a, limit: 1, cursor: nextCursor })).items, 'still good for its own').to.have.length(1);
  });

  it('refuses a limit outside 1..100 at /limit, a bad cursor with InvalidCursorError, an unknown company with NotFoundError', async () => {
    const companyId = await world().company();
    for (const limit of [0, 101, 1.5]) {
      const error = await rejectionOf(world().use('listKeyEvents').execute({ companyId, limit, cursor: null }));
      expect(error, String(limit)).to.be.instanceOf(ValidationError);
      expect(pointersOf(error)).to.deep.equal(['/limit']);
    }
    expect(await rejectionOf(world().use('listKeyEvents').execute({ companyId, cursor: 'garbage!' }))).to.be.instanceOf(InvalidCursorError);
    expect(await rejectionOf(world().use('listKeyEvents').execute({ companyId: 'no-such-company', cursor: null }))).to.be.instanceOf(NotFoundError);
  });
});
