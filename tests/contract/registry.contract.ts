import { expect } from 'chai';
import { aCompany, aServiceKey, at, nextId } from '../support/builders.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

export function registryContract(factory: AdapterFactory): void {
  describe(`CompanyRepository and ServiceKeyRepository (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('finds an inserted company by id and nothing for an unknown id', async () => {
      const company = aCompany({ name: 'ООО «Ташкент Софт»' });
      await adapters().companies.insert(company);
      expect((await adapters().companies.findById(company.id))?.toSnapshot()).to.deep.equal(company.toSnapshot());
      expect(await adapters().companies.findById(nextId('nobody'))).to.equal(null);
    });

    it('keeps a key as issued, with its scopes and hash, and lists keys of one company oldest first', async () => {
      const companyId = nextId('co');
      const older = aServiceKey({ companyId, now: at(0), scopes: ['vacancies:read'] });
      const newer = aServiceKey({ companyId, now: at(5_000) });
      const foreign = aServiceKey({ companyId: nextId('co') });
      for (const key of [newer, foreign, older]) await adapters().keys.insert(key);
      expect((await adapters().keys.findById(older.id))?.toSnapshot()).to.deep.equal(older.toSnapshot());
      const listed = await adapters().keys.listByCompany(companyId);
      expect(listed.map((key) => key.id)).to.deep.equal([older.id, newer.id]);
      expect(await adapters().keys.findById('nokeynokey00')).to.equal(null);
    });

    it('stores revocation on update', async () => {
      const key = aServiceKey({ companyId: nextId('co') });
      await adapters().keys.insert(key);
      key.revoke(at(60_000));
      await adapters().keys.update(key);
      const stored = await adapters().keys.findById(key.id);
      expect(stored?.toSnapshot().revokedAt?.toISOString()).to.equal(at(60_000).toISOString());
      expect(stored?.isUsableAt(at(61_000))).to.equal(false);
    });

    it('records usage without ever moving lastUsedAt back', async () => {
      const key = aServiceKey({ companyId: nextId('co') });
      await adapters().keys.insert(key);
      await adapters().keys.recordUsage(key.id, at(120_000));
      await adapters().keys.recordUsage(key.id, at(60_000));
      expect((await adapters().keys.findById(key.id))?.toSnapshot().lastUsedAt?.toISOString()).to.equal(at(120_000).toISOString());
    });
  });
}
