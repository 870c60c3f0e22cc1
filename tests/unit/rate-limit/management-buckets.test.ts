import { expect } from 'chai';
import { addressBucketOf, tokenBucketOf, tokenCeilingBucketOf } from '../../../adapters/management/rate-limit-buckets.js';

describe('The management listener: rate-limit buckets', () => {
  it('keys an address without a valid token by its IPv6 /64', () => {
    expect(addressBucketOf('2001:db8:5:6::1')).to.equal(addressBucketOf('2001:db8:5:6:ffff::2'));
    expect(addressBucketOf('2001:db8:5:7::1')).not.to.equal(addressBucketOf('2001:db8:5:6::1'));
    expect(addressBucketOf('::ffff:192.0.2.4')).to.equal(addressBucketOf('192.0.2.4'));
  });

  it("gives a token one ceiling whatever company it names, apart from the company's budget", () => {
    const ceiling = tokenCeilingBucketOf('tok');
    expect(ceiling).not.to.equal(tokenBucketOf('tok', '/internal/v1/companies/a/keys'));
    expect(ceiling).not.to.equal(tokenBucketOf('tok', '/internal/v1/companies'));
    expect(tokenCeilingBucketOf('other')).not.to.equal(ceiling);
  });
});
