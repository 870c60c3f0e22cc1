import { expect } from 'chai';
import {
  formatPlatformToken,
  isPlatformTokenId,
  parsePlatformToken,
} from '../../../domain/platform-token/platform-token-format.js';
import { PlatformForbiddenError, requirePlatformAccess } from '../../../domain/platform-token/platform-access.js';
import { PLATFORM_SCOPES } from '../../../domain/platform-token/platform-scope.js';
import { PLATFORM_TOKEN_NAME_MAX_LENGTH, PlatformToken } from '../../../domain/platform-token/platform-token.js';
import { at, T0 } from '../../support/builders.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

const ID = 'Tok0Ab1Cd2Ef';
const SECRET = 'S'.repeat(20) + 'e'.repeat(20);

describe('Platform token format', () => {
  it('formats pt_<id>_<secret> and parses it back', () => {
    const token = formatPlatformToken(ID, SECRET);
    expect(token).to.equal(`pt_${ID}_${SECRET}`);
    expect(parsePlatformToken(token)).to.deep.equal({ tokenId: ID, secret: SECRET });
  });

  it('refuses what cannot be a token: another prefix, a service key, a short id or secret, other characters', () => {
    for (const raw of [
      `ik_${ID}_${SECRET}`,
      `PT_${ID}_${SECRET}`,
      `pt_${ID.slice(1)}_${SECRET}`,
      `pt_${ID}_${SECRET.slice(0, 31)}`,
      `pt_${ID}_${SECRET}!`,
      `pt_${ID}-${SECRET}`,
      ` pt_${ID}_${SECRET}`,
      '',
    ]) {
      expect(parsePlatformToken(raw), raw).to.equal(null);
    }
  });

  it('tells a token id from anything else', () => {
    expect(isPlatformTokenId(ID)).to.equal(true);
    expect(isPlatformTokenId(`pt_${ID}`)).to.equal(false);
    expect(isPlatformTokenId(ID.slice(1))).to.equal(false);
  });
});

describe('PlatformToken', () => {
  const issue = (name = 'страница ключей') => PlatformToken.issue({ id: ID, name, secretHash: 'a'.repeat(64), now: T0 });

  it('keeps its name, hash and creation, unrevoked', () => {
    expect(issue().toSnapshot()).to.deep.equal({
      id: ID, name: 'страница ключей', secretHash: 'a'.repeat(64), scopes: [...PLATFORM_SCOPES], companies: null, createdAt: T0, expiresAt: null, revokedAt: null,
    });
  });

  it('refuses an empty, blank or overlong name at /name', () => {
    for (const name of ['', '   ', 'n'.repeat(PLATFORM_TOKEN_NAME_MAX_LENGTH + 1)]) {
      expect(pointersOf(thrownBy(() => issue(name))), JSON.stringify(name)).to.deep.equal(['/name']);
    }
  });

  it('is active until revoked; revoking again keeps the first moment', () => {
    const token = issue();
    expect(token.isActiveAt(at(1_000))).to.equal(true);
    expect(token.revoke(at(1_000))).to.deep.equal(at(1_000));
    expect(token.revoke(at(2_000))).to.deep.equal(at(1_000));
    expect(token.isActiveAt(at(1_000))).to.equal(false);
  });
});

describe('PlatformToken scopes, companies and expiry', () => {
  const issue = (limits: { scopes?: string[]; companies?: string[] | null; expiresAt?: Date | null }) =>
    PlatformToken.issue({ id: ID, name: 'n', secretHash: 'a'.repeat(64), now: T0, ...limits });

  it('keeps the scopes in their order, once each, and the companies once each', () => {
    const token = issue({ scopes: ['key-events:read', 'keys:read', 'keys:read'], companies: ['c-2', 'c-1', 'c-2'] });
    expect(token.access).to.deep.equal({ scopes: ['keys:read', 'key-events:read'], companies: ['c-2', 'c-1'] });
  });

  it('refuses no scope, an unknown scope, an empty company list, a blank company, and an expiry in the past or after year 9999, each at its pointer', () => {
    const error = thrownBy(() =>
      issue({ scopes: ['keys:read', 'keys:admin'], companies: ['c-1', ''], expiresAt: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1) }),
    );
    expect(pointersOf(error)).to.deep.equal(['/scopes/1', '/companies/1', '/expiresAt']);
    expect(pointersOf(thrownBy(() => issue({ scopes: [], companies: [], expiresAt: T0 })))).to.deep.equal(['/scopes', '/companies', '/expiresAt']);
  });

  it('stops working at its expiry, as at its revocation', () => {
    const token = issue({ expiresAt: at(60_000) });
    expect([token.isActiveAt(at(59_999)), token.isActiveAt(at(60_000))]).to.deep.equal([true, false]);
  });
});

describe('requirePlatformAccess', () => {
  const access = { scopes: ['keys:read'] as const, companies: ['c-1'] };

  it('names the missing scope first, then the company outside the token, and refuses a limited token what reaches every company', () => {
    const refusal = (fn: () => void) => {
      const error = thrownBy(fn);
      expect(error).to.be.instanceOf(PlatformForbiddenError);
      return [(error as PlatformForbiddenError).code, (error as Error).message];
    };
    expect(refusal(() => requirePlatformAccess(access, 'keys:write', { companyId: 'c-2' }))).to.deep.equal(['forbidden', 'The platform token lacks the scope keys:write.']);
    expect(refusal(() => requirePlatformAccess(access, 'keys:read', { companyId: 'c-2' }))).to.deep.equal(['forbidden', 'The platform token is not allowed for company c-2.']);
    expect(refusal(() => requirePlatformAccess(access, 'keys:read', 'every-company'))[1]).to.contain('needs a token for every company');
    expect(() => requirePlatformAccess(access, 'keys:read', { companyId: 'c-1' })).not.to.throw();
    expect(() => requirePlatformAccess({ ...access, companies: null }, 'keys:read', 'every-company')).not.to.throw();
  });
});
