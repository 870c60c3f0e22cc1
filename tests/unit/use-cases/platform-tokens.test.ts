import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { parsePlatformToken } from '../../../domain/platform-token/platform-token-format.js';
import { PLATFORM_SCOPES } from '../../../domain/platform-token/platform-scope.js';
import { PlatformUnauthorizedError } from '../../../domain/platform-token/platform-token.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { at, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('Platform tokens (issue, list, revoke, authenticate)', () => {
  const world = withWorld();
  const authenticate = (presented: string | undefined) => world().use('authenticatePlatformToken').execute({ presented });

  it('issues pt_<id>_<secret> once, stores only its SHA-256, and authenticates it as its id and name', async () => {
    const issued = await world().use('issuePlatformToken').execute({ name: 'страница ключей' });
    expect(issued).to.deep.include({ name: 'страница ключей', createdAt: T0 });
    const parsed = parsePlatformToken(issued.token);
    expect(parsed?.tokenId).to.equal(issued.id);
    const stored = JSON.stringify([...world().database.platformTokens.values()]);
    expect(stored).to.not.contain(parsed?.secret);
    expect(stored).to.contain(createHash('sha256').update(parsed?.secret ?? '', 'utf8').digest('hex'));
    expect(await authenticate(issued.token)).to.deep.equal({ tokenId: issued.id, name: 'страница ключей', scopes: [...PLATFORM_SCOPES], companies: null, expiresAt: null });
  });

  it('lists tokens oldest first without hash or secret', async () => {
    const first = await world().use('issuePlatformToken').execute({ name: 'a' });
    world().clock.set(at(1_000));
    const second = await world().use('issuePlatformToken').execute({ name: 'b' });
    const listed = await world().use('listPlatformTokens').execute();
    expect(listed).to.deep.equal([
      { id: first.id, name: 'a', scopes: [...PLATFORM_SCOPES], companies: null, createdAt: T0, expiresAt: null, revokedAt: null },
      { id: second.id, name: 'b', scopes: [...PLATFORM_SCOPES], companies: null, createdAt: at(1_000), expiresAt: null, revokedAt: null },
    ]);
  });

  it('refuses a revoked token from the next request on; revoking again keeps the first moment', async () => {
    const issued = await world().use('issuePlatformToken').execute({ name: 'a' });
    await authenticate(issued.token);
    world().clock.set(at(5_000));
    expect(await world().use('revokePlatformToken').execute({ id: issued.id })).to.deep.equal({ id: issued.id, revokedAt: at(5_000) });
    expect(await rejectionOf(authenticate(issued.token))).to.be.instanceOf(PlatformUnauthorizedError);
    world().clock.set(at(9_000));
    expect((await world().use('revokePlatformToken').execute({ id: issued.id })).revokedAt).to.deep.equal(at(5_000));
    expect((await world().use('listPlatformTokens').execute())[0]?.revokedAt).to.deep.equal(at(5_000));
  });

  it('refuses a missing, malformed, unknown or wrong token, and a service key, with one error of code unauthorized', async () => {
    const issued = await world().use('issuePlatformToken').execute({ name: 'a' });
    const { tokenId, secret } = parsePlatformToken(issued.token) ?? { tokenId: '', secret: '' };
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const companyId = await world().company();
    const key = await world().use('issueKey').execute({ companyId, name: 'k', scopes: ['vacancies:read'], expiresAt: null, actor: { name: 'a', via: 'admin-cli' } });
    const presented = [undefined, '', 'Bearer x', `pt_${tokenId}`, `pt_${flip(tokenId)}_${secret}`, `pt_${tokenId}_${flip(secret)}`, key.key, `pt_${key.key.slice(3)}`];
    const errors = await Promise.all(presented.map((p) => rejectionOf(authenticate(p))));
    for (const [i, error] of errors.entries()) {
      expect(error, String(presented[i])).to.be.instanceOf(PlatformUnauthorizedError);
      expect(error).to.have.property('code', 'unauthorized');
    }
    expect(new Set(errors.map((e) => (e as Error).message)).size).to.equal(1);
  });

  it('refuses a blank name at /name and an unknown id on revocation', async () => {
    const error = await rejectionOf(world().use('issuePlatformToken').execute({ name: ' ' }));
    expect(error).to.be.instanceOf(ValidationError);
    expect(pointersOf(error)).to.deep.equal(['/name']);
    expect(await rejectionOf(world().use('revokePlatformToken').execute({ id: 'AAAAAAAAAAAA' }))).to.be.instanceOf(NotFoundError);
    expect(await world().use('listPlatformTokens').execute()).to.deep.equal([]);
  });
});

describe('Platform tokens: least privilege and the audit trail', () => {
  const world = withWorld();
  const authenticate = (presented: string | undefined) => world().use('authenticatePlatformToken').execute({ presented });
  const events = async () => (await world().use('listPlatformTokenEvents').execute({ cursor: null })).items;

  it('issues a token with scopes, companies and an expiry, which authentication hands on, and refuses it from its expiry on', async () => {
    const companyId = await world().company();
    const issued = await world().use('issuePlatformToken').execute({ name: 'page', scopes: ['keys:read'], companies: [companyId], expiresAt: at(60_000) });
    expect(issued).to.deep.include({ scopes: ['keys:read'], companies: [companyId], expiresAt: at(60_000) });
    expect(await authenticate(issued.token)).to.deep.include({ scopes: ['keys:read'], companies: [companyId], expiresAt: at(60_000) });
    world().clock.set(at(60_000));
    expect(await rejectionOf(authenticate(issued.token))).to.be.instanceOf(PlatformUnauthorizedError);
  });

  it('refuses a company that does not exist at /companies/<i>, and stores nothing', async () => {
    const companyId = await world().company();
    const error = await rejectionOf(world().use('issuePlatformToken').execute({ name: 'x', companies: [companyId, 'no-such-company'] }));
    expect(pointersOf(error)).to.deep.equal(['/companies/1']);
    expect([await world().use('listPlatformTokens').execute(), await events()]).to.deep.equal([[], []]);
  });

  it('records issue and revocation with actor and channel, newest first; a second revocation records nothing', async () => {
    const actor = { name: 'ops@platform.example', via: 'admin-cli' };
    const issued = await world().use('issuePlatformToken').execute({ name: 'x', expiresAt: at(86_400_000), actor });
    world().clock.set(at(1_000));
    await world().use('revokePlatformToken').execute({ id: issued.id, actor });
    world().clock.set(at(2_000));
    await world().use('revokePlatformToken').execute({ id: issued.id });
    const trail = (await events()).map(({ id: _id, ...event }) => event);
    expect(trail).to.deep.equal([
      { tokenId: issued.id, type: 'platform_token_revoked', at: at(1_000), actor: 'ops@platform.example', via: 'admin-cli', expiresAt: null },
      { tokenId: issued.id, type: 'platform_token_issued', at: T0, actor: 'ops@platform.example', via: 'admin-cli', expiresAt: at(86_400_000) },
    ]);
  });

  it('keeps the tokens\' events out of every company\'s trail', async () => {
    const companyId = await world().company();
    await world().use('issuePlatformToken').execute({ name: 'x', companies: [companyId] });
    expect((await world().use('listKeyEvents').execute({ companyId, cursor: null })).items).to.deep.equal([]);
    expect(await events()).to.have.length(1);
  });
});
