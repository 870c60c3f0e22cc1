import { expect } from 'chai';
import type { PlatformTokenRepository } from '../../application/ports/platform-token-repository.port.js';
import { PlatformToken } from '../../domain/platform-token/platform-token.js';
import { at, nextId } from '../support/builders.js';

/** Makes the repository for one test; the tests use fresh ids, so it may hold tokens of other tests. */
export interface PlatformTokenRepositoryFactory {
  readonly name: string;
  make(): PlatformTokenRepository;
}

function aToken(params: { name?: string; now?: Date; id?: string } = {}): PlatformToken {
  return PlatformToken.issue({
    id: params.id ?? nextId('pt').replace(/-/g, '').padEnd(12, '0').slice(0, 12),
    name: params.name ?? 'Платформа: страница ключей',
    secretHash: 'c'.repeat(64),
    now: params.now ?? at(0),
  });
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
  });
}
