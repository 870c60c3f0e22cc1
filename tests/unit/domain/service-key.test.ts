import { expect } from 'chai';
import { SCOPES, isScope } from '../../../domain/service-key/scope.js';
import { ForbiddenError, requireScope, ServiceKey, UnauthorizedError } from '../../../domain/service-key/service-key.js';
import { at, T0 } from '../../support/builders.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

function issue(overrides: Partial<Parameters<typeof ServiceKey.issue>[0]> = {}): ServiceKey {
  return ServiceKey.issue({
    id: 'AbCdEf012345',
    companyId: 'co-1',
    name: 'career portal',
    scopes: ['vacancies:read', 'applications:write'],
    secretHash: 'f'.repeat(64),
    expiresAt: null,
    now: T0,
    actor: null,
    ...overrides,
  });
}

describe('ServiceKey', () => {
  describe('issue', () => {
    it('keeps name, company, scopes and times, never revoked or used yet', () => {
      expect(issue({ expiresAt: at(86_400_000) }).toSnapshot()).to.deep.equal({
        id: 'AbCdEf012345',
        companyId: 'co-1',
        name: 'career portal',
        scopes: ['vacancies:read', 'applications:write'],
        secretHash: 'f'.repeat(64),
        createdAt: T0,
        expiresAt: at(86_400_000),
        revokedAt: null,
        lastUsedAt: null,
        createdBy: null,
        revokedBy: null,
        rolledFrom: null,
        rolledTo: null,
      });
    });

    it('stores each scope once, in the order of the specification', () => {
      const scopes = issue({ scopes: ['applications:write', 'candidates:read', 'applications:write', 'vacancies:read'] }).principal.scopes;
      expect(scopes).to.deep.equal(['vacancies:read', 'candidates:read', 'applications:write']);
    });

    it('wants at least one scope', () => {
      expect(pointersOf(thrownBy(() => issue({ scopes: [] })))).to.deep.equal(['/scopes']);
    });

    it('refuses an unknown scope and names it and its place', () => {
      const error = thrownBy(() => issue({ scopes: ['vacancies:read', 'candidates:write'] }));
      expect(pointersOf(error)).to.deep.equal(['/scopes/1']);
      expect((error as { problems: { message: string }[] }).problems[0]?.message).to.contain('"candidates:write"');
    });

    it('wants expiresAt in the future', () => {
      expect(pointersOf(thrownBy(() => issue({ expiresAt: T0 })))).to.deep.equal(['/expiresAt']);
      expect(pointersOf(thrownBy(() => issue({ expiresAt: at(-1) })))).to.deep.equal(['/expiresAt']);
      expect(() => issue({ expiresAt: at(1) })).to.not.throw();
    });

    it('bounds the name at 200 characters', () => {
      expect(() => issue({ name: 'я'.repeat(200) })).to.not.throw();
      expect(pointersOf(thrownBy(() => issue({ name: 'я'.repeat(201) })))).to.deep.equal(['/name']);
    });
  });

  describe('isUsableAt', () => {
    it('holds for a fresh key without expiry', () => {
      expect(issue().isUsableAt(at(10 * 365 * 86_400_000))).to.equal(true);
    });

    it('ends at the moment of expiry', () => {
      const key = issue({ expiresAt: at(60_000) });
      expect(key.isUsableAt(at(59_999))).to.equal(true);
      expect(key.isUsableAt(at(60_000))).to.equal(false);
      expect(key.isUsableAt(at(60_001))).to.equal(false);
    });

    it('ends at the moment of revocation', () => {
      const key = issue();
      key.revoke(at(1000));
      expect(key.isUsableAt(at(999))).to.equal(true);
      expect(key.isUsableAt(at(1000))).to.equal(false);
    });
  });

  it('keeps the first moment when revoked twice', () => {
    const key = issue();
    expect(key.revoke(at(1000)).toISOString()).to.equal(at(1000).toISOString());
    expect(key.revoke(at(5000)).toISOString()).to.equal(at(1000).toISOString());
    expect(key.toSnapshot().revokedAt?.toISOString()).to.equal(at(1000).toISOString());
  });

  describe('needsUsageRecord', () => {
    const used = (lastUsedAt: Date | null) => ServiceKey.restore({ ...issue().toSnapshot(), lastUsedAt });

    it('holds for a key never used', () => {
      expect(used(null).needsUsageRecord(T0)).to.equal(true);
    });

    it('holds once a minute: not 59.999 s after the last record, but 60 s after it', () => {
      expect(used(T0).needsUsageRecord(T0)).to.equal(false);
      expect(used(T0).needsUsageRecord(at(59_999))).to.equal(false);
      expect(used(T0).needsUsageRecord(at(60_000))).to.equal(true);
    });
  });

  it('names its key and company as the principal', () => {
    expect(issue().principal).to.deep.equal({ keyId: 'AbCdEf012345', companyId: 'co-1', scopes: ['vacancies:read', 'applications:write'] });
  });

  describe('requireScope', () => {
    const principal = { keyId: 'k', companyId: 'co-1', scopes: ['vacancies:read', 'applications:write'] as const };

    it('lets a held scope pass', () => {
      expect(() => requireScope({ ...principal, scopes: [...principal.scopes] }, 'applications:write')).to.not.throw();
    });

    it('refuses a missing scope with ForbiddenError naming it', () => {
      const error = thrownBy(() => requireScope({ ...principal, scopes: [...principal.scopes] }, 'candidates:read'));
      expect(error).to.be.instanceOf(ForbiddenError);
      expect(error).to.deep.include({ code: 'forbidden', scope: 'candidates:read' });
      expect((error as Error).message).to.contain('candidates:read');
    });
  });

  it('has one unauthorized error that says nothing about why', () => {
    const error = new UnauthorizedError();
    expect(error.code).to.equal('unauthorized');
    expect(error.message).to.not.match(/revoked|expired|unknown/i);
  });

  it('knows the three scopes of the specification', () => {
    expect(SCOPES).to.deep.equal(['vacancies:read', 'candidates:read', 'applications:write']);
    expect(isScope('candidates:read')).to.equal(true);
    expect(isScope('candidates:write')).to.equal(false);
  });
});
