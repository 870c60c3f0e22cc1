import { expect } from 'chai';
import {
  formatPlatformToken,
  isPlatformTokenId,
  parsePlatformToken,
} from '../../../domain/platform-token/platform-token-format.js';
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
    expect(issue().toSnapshot()).to.deep.equal({ id: ID, name: 'страница ключей', secretHash: 'a'.repeat(64), createdAt: T0, revokedAt: null });
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
