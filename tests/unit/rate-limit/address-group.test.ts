import { expect } from 'chai';
import { addressGroupOf } from '../../../adapters/rate-limit/address-group.js';

describe('addressGroupOf (the client address a rate-limit bucket is keyed by)', () => {
  it('keys an IPv4 address by itself', () => {
    expect(addressGroupOf('203.0.113.7')).to.equal('203.0.113.7');
    expect(addressGroupOf('203.0.113.8')).to.equal('203.0.113.8');
  });

  it('keys every address of one IPv6 /64 by that /64, however it is written', () => {
    const group = '2001:db8:0:1::/64';
    for (const address of ['2001:db8:0:1::1', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0DB8:0000:0001:0:0:0:2', '2001:db8:0:1:a:b:c:d%eth0', '[2001:db8:0:1::9]:443', '2001:db8:0:1::192.0.2.1']) {
      expect(addressGroupOf(address), address).to.equal(group);
    }
    expect(addressGroupOf('2001:db8:0:2::1'), 'the next /64').to.equal('2001:db8:0:2::/64');
    expect(addressGroupOf('::1')).to.equal('0:0:0:0::/64');
  });

  it('keys an IPv4 address mapped into IPv6, or with a port, as the IPv4 address', () => {
    expect(addressGroupOf('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(addressGroupOf('::FFFF:cb00:7107')).to.equal('203.0.113.7');
    expect(addressGroupOf('203.0.113.7:51234')).to.equal('203.0.113.7');
  });

  it('keeps text that is no address as it is', () => {
    expect(addressGroupOf(' unknown ')).to.equal('unknown');
  });
});
