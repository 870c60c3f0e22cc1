import { expect } from 'chai';
import { formatServiceKey, KEY_SECRET_LENGTH, parseServiceKey } from '../../../domain/service-key/service-key-format.js';

const KEY_ID = 'AbCdEf012345';
const SECRET = 'Zx9'.repeat(13) + 'Q';

describe('service key format ik_<keyId>_<secret> (DESIGN 3)', () => {
  it('formats a key and parses it back into its id and secret', () => {
    const key = formatServiceKey(KEY_ID, SECRET);
    expect(key).to.equal(`ik_${KEY_ID}_${SECRET}`);
    expect(parseServiceKey(key)).to.deep.equal({ keyId: KEY_ID, secret: SECRET });
  });

  it('issues secrets of at least 32 characters', () => {
    expect(KEY_SECRET_LENGTH).to.be.at.least(32);
    expect(SECRET).to.have.length(KEY_SECRET_LENGTH);
  });

  it('accepts secrets of 32 to 128 base62 characters', () => {
    expect(parseServiceKey(`ik_${KEY_ID}_${'a'.repeat(32)}`)?.secret).to.have.length(32);
    expect(parseServiceKey(`ik_${KEY_ID}_${'a'.repeat(128)}`)?.secret).to.have.length(128);
  });

  const malformed: Record<string, string> = {
    'an empty value': '',
    'a key without the prefix': `${KEY_ID}_${SECRET}`,
    'another prefix': `IK_${KEY_ID}_${SECRET}`,
    'a key id of 11 characters': `ik_${KEY_ID.slice(1)}_${SECRET}`,
    'a key id of 13 characters': `ik_${KEY_ID}x_${SECRET}`,
    'a secret of 31 characters': `ik_${KEY_ID}_${'a'.repeat(31)}`,
    'a secret of 129 characters': `ik_${KEY_ID}_${'a'.repeat(129)}`,
    'a secret with a character outside base62': `ik_${KEY_ID}_${SECRET.slice(1)}-`,
    'a secret with an underscore': `ik_${KEY_ID}_${SECRET.slice(1)}_`,
    'Cyrillic letters': `ik_${KEY_ID}_${'я'.repeat(40)}`,
    'a leading space': ` ik_${KEY_ID}_${SECRET}`,
    'a trailing newline': `ik_${KEY_ID}_${SECRET}\n`,
    'a Bearer prefix': `Bearer ik_${KEY_ID}_${SECRET}`,
  };
  for (const [what, raw] of Object.entries(malformed)) {
    it(`does not take ${what} for a key`, () => {
      expect(parseServiceKey(raw)).to.equal(null);
    });
  }
});
