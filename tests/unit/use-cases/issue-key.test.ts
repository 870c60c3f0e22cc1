import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { parseServiceKey } from '../../../domain/service-key/service-key-format.js';
import { at, T0 } from '../../support/builders.js';
import { pointersOf, rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('IssueKey (key issue)', () => {
  const world = withWorld();

  it('shows the full key once, as ik_<12-character id>_<secret>, with its scopes, company and times', async () => {
    const companyId = await world().company();
    const issued = await world().use('issueKey').execute({ companyId, name: 'витрина', scopes: ['applications:write', 'vacancies:read'], expiresAt: at(86_400_000), actor: ADMIN_CLI_ACTOR });
    expect(issued.key).to.match(/^ik_[0-9A-Za-z]{12}_[0-9A-Za-z]{32,}$/);
    expect(parseServiceKey(issued.key)?.keyId).to.equal(issued.id);
    expect(issued).to.deep.include({ name: 'витрина', companyId, scopes: ['vacancies:read', 'applications:write'] });
    expect(issued.createdAt.toISOString()).to.equal(T0.toISOString());
    expect(issued.expiresAt?.toISOString()).to.equal(at(86_400_000).toISOString());
  });

  it('stores only a SHA-256 hash of the secret, never the secret or the full key', async () => {
    const companyId = await world().company();
    const issued = await world().use('issueKey').execute({ companyId, name: 'portal', scopes: ['candidates:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    const secret = parseServiceKey(issued.key)?.secret as string;
    const stored = JSON.stringify([...world().database.serviceKeys.values()]);
    expect(stored).to.not.contain(secret);
    expect(stored).to.contain(createHash('sha256').update(secret, 'utf8').digest('hex'));
  });

  it('makes a different id and secret for every key', async () => {
    const companyId = await world().company();
    const issue = () => world().use('issueKey').execute({ companyId, name: 'k', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR });
    const [a, b] = [await issue(), await issue()];
    expect(a.id).to.not.equal(b.id);
    expect(parseServiceKey(a.key)?.secret).to.not.equal(parseServiceKey(b.key)?.secret);
  });

  it('refuses an unknown company with NotFoundError and stores nothing', async () => {
    const error = await rejectionOf(world().use('issueKey').execute({ companyId: 'no-such-company', name: 'k', scopes: ['vacancies:read'], expiresAt: null, actor: ADMIN_CLI_ACTOR }));
    expect(error).to.be.instanceOf(NotFoundError);
    expect([...world().database.serviceKeys.values()]).to.deep.equal([]);
  });

  it('refuses unknown scopes and a past expiry, naming them, and stores nothing', async () => {
    const companyId = await world().company();
    const error = await rejectionOf(world().use('issueKey').execute({ companyId, name: 'k', scopes: ['vacancies:write', 'candidates:read'], expiresAt: at(-1), actor: ADMIN_CLI_ACTOR }));
    expect(error).to.be.instanceOf(ValidationError);
    expect(pointersOf(error)).to.deep.equal(['/scopes/0', '/expiresAt']);
    expect((error as ValidationError).problems[0]?.message).to.contain('vacancies:write');
    expect(await world().use('listKeys').execute({ companyId })).to.deep.equal([]);
  });

  it('records who issued it, through which channel, as an issued event written with the key', async () => {
    const companyId = await world().company();
    const dana = { name: 'dana@platform', via: 'platform-token:Tok0Ab1Cd2Ef' };
    const issued = await world().use('issueKey').execute({ companyId, name: 'k', scopes: ['vacancies:read'], expiresAt: null, actor: dana });
    expect(issued.createdBy).to.equal('dana@platform');
    const { items } = await world().use('listKeyEvents').execute({ companyId, cursor: null });
    expect(items.map(({ id: _id, ...e }) => e)).to.deep.equal([
      { keyId: issued.id, type: 'issued', at: T0, actor: 'dana@platform', via: dana.via, successorKeyId: null, expiresAt: null },
    ]);
  });

  it('refuses a bad actor at /actor with the other problems, and stores neither key nor event', async () => {
    const companyId = await world().company();
    const error = await rejectionOf(world().use('issueKey').execute({ companyId, name: 'k', scopes: [], expiresAt: null, actor: { name: 'x'.repeat(201), via: 'admin-cli' } }));
    expect(pointersOf(error)).to.deep.equal(['/actor', '/scopes']);
    expect([...world().database.serviceKeys.values()]).to.deep.equal([]);
    expect([...world().database.keyEvents.values()]).to.deep.equal([]);
  });
});
