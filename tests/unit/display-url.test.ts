import { expect } from 'chai';
import { displayUrl, withoutPasswords } from '../../infrastructure/display-url.js';

describe('displayUrl and withoutPasswords (addresses in messages)', () => {
  it('shows scheme, host, port and path, never the user name or password', () => {
    expect(displayUrl('postgresql://svc:s3cret@db.internal:6432/crm')).to.equal('postgresql://db.internal:6432/crm');
    expect(displayUrl('amqp://guest:guest@127.0.0.1:5672')).to.equal('amqp://127.0.0.1:5672');
    expect(displayUrl('not a url')).to.equal('the given URL');
  });

  it('cuts each URL\'s password, decoded, out of a text that quotes it, and leaves a text without one as it is', () => {
    const urls = ['postgresql://svc:p%40ss-word@db:5432/crm', null, 'postgresql://keys:other-pw@db:5432/keys'];
    expect(withoutPasswords('auth failed for p@ss-word and other-pw', urls)).to.equal('auth failed for (password not shown) and (password not shown)');
    expect(withoutPasswords('connect ECONNREFUSED 127.0.0.1:5432', urls)).to.equal('connect ECONNREFUSED 127.0.0.1:5432');
  });
});
