import { expect } from 'chai';
import type { PlatformTokenRepository } from '../../application/ports/platform-token-repository.port.js';
import { ConcurrentKeyChangeError } from '../../application/ports/service-key-repository.port.js';
import type { PlatformTokenEvent } from '../../domain/platform-token/platform-token-event.js';
import { PlatformToken } from '../../domain/platform-token/platform-token.js';
import { at, nextId } from '../support/builders.js';

/** Makes the repository for one test; the tests use fresh ids, so it may hold tokens of other tests. */
export interface PlatformTokenRepositoryFactory {
  readonly name: string;
  make(): PlatformTokenRepository;
}

function aToken(params: { name?: string; now?: Date; id?: string; scopes?: string[]; companies?: string[]; expiresAt?: Date } = {}): PlatformToken {
  return PlatformToken.issue({
    id: params.id ?? nextId('pt').replace(/-/g, '').padEnd(12, '0').slice(0, 12),
    name: params.name ?? 'Платформа: страница ключей',
    secretHash: 'c'.repeat(64),
    now: params.now ?? at(0),
    ...(params.scopes === undefined ? {} : { scopes: params.scopes }),
    ...(params.companies === undefined ? {} : { companies: params.companies }),
    ...(params.expiresAt === undefined ? {} : { expiresAt: params.expiresAt }),
  });
}

function anEvent(token: PlatformToken, type: PlatformTokenEvent['type'], atMs: number, id = nextId('ev')): PlatformTokenEvent {
  const expiresAt = type === 'platform_token_issued' ? token.toSnapshot().expiresAt : null;
  return { id, tokenId: token.id, type, at: at(atMs), actor: 'Айгерим Н.', via: 'admin-cli', expiresAt };
}

export function platformTokenRepositoryContract(factory: PlatformTokenRepositoryFactory): void {
  describe(`PlatformTokenRepository (${factory.name})`, () => {
    let tokens: PlatformTokenRepository;
    beforeEach(() => {
      tokens = factory.make();
    });

    it('finds an inserted token by id as issued, and nothing for an unknown id', async () => {
      const token = aToken();
      await tokens.insert(token);
      expect((await tokens.findById(token.id))?.toSnapshot()).to.deep.equal(token.toSnapshot());
      expect(await tokens.findById('nosuchtoken0')).to.equal(null);
    });

    it('stores a revocation, and a change of the token read back does not reach the store unwritten', async () => {
      const token = aToken();
      await tokens.insert(token);
      const read = await tokens.findById(token.id);
      read?.revoke(at(60_000));
      expect((await tokens.findById(token.id))?.toSnapshot().revokedAt).to.equal(null);
      if (read === null) throw new Error('the token was inserted');
      await tokens.update(read);
      const stored = await tokens.findById(token.id);
      expect(stored?.toSnapshot().revokedAt?.toISOString()).to.equal(at(60_000).toISOString());
      expect(stored?.isActiveAt(at(60_000))).to.equal(false);
    });

    it('keeps the first revocation stored when two that read the token unrevoked write at different moments', async () => {
      const token = aToken();
      await tokens.insert(token);
      const [first, second] = [await tokens.findById(token.id), await tokens.findById(token.id)];
      if (first === null || second === null) throw new Error('the token was inserted');
      first.revoke(at(60_000));
      second.revoke(at(120_000));
      await tokens.update(first);
      await tokens.update(second);
      const stored = await tokens.findById(token.id);
      expect(stored?.toSnapshot().revokedAt?.toISOString()).to.equal(at(60_000).toISOString());
      expect(stored?.isActiveAt(at(60_000))).to.equal(false);
    });

    it('lists every token oldest first, equal times by id, and refuses a second token with the same id', async () => {
      const newer = aToken({ now: at(5_000) });
      const [tieB, tieA] = [aToken({ id: `ptb${nextId('').slice(1)}`, now: at(1_000) }), aToken({ id: `pta${nextId('').slice(1)}`, now: at(1_000) })];
      const older = aToken({ now: at(-5_000), name: 'CRM' });
      for (const token of [newer, tieB, older, tieA]) await tokens.insert(token);
      const mine = new Set([newer, tieA, tieB, older].map((token) => token.id));
      const listed = (await tokens.list()).filter((token) => mine.has(token.id));
      const tieOrder = [tieA, tieB].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(listed.map((token) => token.toSnapshot())).to.deep.equal([older, ...tieOrder, newer].map((token) => token.toSnapshot()));
      let refused = false;
      await tokens.insert(aToken({ id: newer.id })).catch(() => (refused = true));
      expect(refused, 'a second insert of one id is refused').to.equal(true);
    });

    it('writes a token with its scopes, companies and expiry and its event at once, and reads the events newest first, page by page', async () => {
      const token = aToken({ scopes: ['key-events:read', 'keys:read'], companies: ['co-b', 'co-a'], expiresAt: at(86_400_000) });
      const issued = anEvent(token, 'platform_token_issued', 0);
      await tokens.write({ inserted: [token], events: [issued] });
      expect((await tokens.findById(token.id))?.toSnapshot()).to.deep.equal(token.toSnapshot());
      expect(token.toSnapshot()).to.deep.include({ scopes: ['keys:read', 'key-events:read'], companies: ['co-b', 'co-a'] });
      const revoked = await tokens.findById(token.id);
      revoked?.revoke(at(1_000));
      // Two events of one write, at one moment, whose ids sort the other way: the order of recording decides.
      const [low, high] = [`${nextId('ev')}-a`, `${nextId('ev')}-b`].sort();
      const revocation = anEvent(token, 'platform_token_revoked', 1_000, low);
      const sameMoment = { ...anEvent(token, 'platform_token_issued', 1_000, high), expiresAt: null };
      await tokens.write({ revoked: revoked === null ? [] : [revoked], events: [sameMoment, revocation] });
      const mine = async (after: string | null) =>
        (await tokens.listEvents({ limit: 1_000, after })).filter((event) => event.tokenId === token.id);
      expect(await mine(null)).to.deep.equal([revocation, sameMoment, issued]);
      expect(await mine(revocation.id)).to.deep.equal([sameMoment, issued]);
      // An event stamped before the others but recorded after them comes first: a reader that paged past the
      // others meets it above its first page (ADR 17), never below a place it passed.
      const late = { ...anEvent(token, 'platform_token_issued', 500), expiresAt: null };
      await tokens.write({ events: [late] });
      expect(await mine(null)).to.deep.equal([late, revocation, sameMoment, issued]);
      expect((await tokens.findById(token.id))?.toSnapshot().revokedAt?.toISOString()).to.equal(at(1_000).toISOString());
    });

    it('refuses a revocation of a token revoked since it was read, and stores none of that write', async () => {
      const token = aToken();
      await tokens.write({ inserted: [token], events: [] });
      const [first, second] = [await tokens.findById(token.id), await tokens.findById(token.id)];
      if (first === null || second === null) throw new Error('the token was inserted');
      first.revoke(at(60_000));
      second.revoke(at(120_000));
      await tokens.write({ revoked: [first], events: [anEvent(token, 'platform_token_revoked', 60_000)] });
      const late = anEvent(token, 'platform_token_revoked', 120_000);
      let error: unknown;
      await tokens.write({ revoked: [second], events: [late] }).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(ConcurrentKeyChangeError);
      expect((await tokens.findById(token.id))?.toSnapshot().revokedAt?.toISOString()).to.equal(at(60_000).toISOString());
      const events = (await tokens.listEvents({ limit: 1_000, after: null })).filter((event) => event.tokenId === token.id);
      expect(events.map((event) => event.at.toISOString())).to.deep.equal([at(60_000).toISOString()]);
    });
  });
}
