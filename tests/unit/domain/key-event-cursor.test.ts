import { expect } from 'chai';
import { InvalidCursorError } from '../../../domain/paging/cursor.js';
import { decodeKeyEventCursor, encodeKeyEventCursor } from '../../../domain/service-key/key-event-cursor.js';
import { at } from '../../support/builders.js';
import { thrownBy } from '../../support/catching.js';

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('the key events cursor', () => {
  it('is base64url of {v:1,t,i} and reads back to the same position', () => {
    const position = { at: at(1_234), id: '019a0000-0000-7000-8000-000000000001' };
    const cursor = encodeKeyEventCursor(position);
    expect(cursor).to.match(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).to.deep.equal({ v: 1, t: at(1_234).getTime(), i: position.id });
    expect(decodeKeyEventCursor(cursor)).to.deep.equal(position);
  });

  it('refuses anything else with InvalidCursorError', () => {
    const bad = [
      '',
      'not a cursor',
      'abc=',
      base64url('{}'),
      base64url('[1]'),
      base64url('null'),
      base64url(JSON.stringify({ v: 2, t: 0, i: 'x' })),
      base64url(JSON.stringify({ v: 1, t: 1.5, i: 'x' })),
      base64url(JSON.stringify({ v: 1, t: 0, i: '' })),
      base64url(JSON.stringify({ v: 1, t: 0, i: 'with space' })),
      base64url(JSON.stringify({ v: 1, t: 0, i: 'x'.repeat(65) })),
      base64url(JSON.stringify({ v: 1, t: 8.64e15, i: 'x' })),
      'A'.repeat(300),
    ];
    for (const cursor of bad) {
      const error = thrownBy(() => decodeKeyEventCursor(cursor));
      expect(error, cursor).to.be.instanceOf(InvalidCursorError);
      expect((error as InvalidCursorError).code).to.equal('invalid_cursor');
    }
  });
});
