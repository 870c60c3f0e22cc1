import { expect } from 'chai';
import { InvalidCursorError } from '../../../domain/paging/cursor.js';
import { decodeKeyEventCursor, encodeKeyEventCursor, keyEventsQueryFingerprint } from '../../../domain/service-key/key-event-cursor.js';
import { thrownBy } from '../../support/catching.js';

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const MINE = keyEventsQueryFingerprint('company-1');

describe('the key events cursor', () => {
  it("is base64url of {v:2,i,f}: the page's last event and the company's query fingerprint, read back to that event", () => {
    const id = '019a0000-0000-7000-8000-000000000001';
    const cursor = encodeKeyEventCursor(id, MINE);
    expect(cursor).to.match(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).to.deep.equal({ v: 2, i: id, f: MINE });
    expect(decodeKeyEventCursor(cursor, MINE)).to.equal(id);
  });

  it("refuses a cursor of another company's events with InvalidCursorError, saying so", () => {
    const theirs = keyEventsQueryFingerprint('company-2');
    expect(theirs).to.not.equal(MINE);
    expect(keyEventsQueryFingerprint('company-1'), 'stable').to.equal(MINE);
    const cursor = encodeKeyEventCursor('019a0000-0000-7000-8000-000000000001', theirs);
    const error = thrownBy(() => decodeKeyEventCursor(cursor, MINE));
    expect(error).to.be.instanceOf(InvalidCursorError);
    expect((error as InvalidCursorError).message).to.contain("another company's key events");
  });

  it('refuses anything else with InvalidCursorError, a cursor of the order by time (v:1) included', () => {
    const bad = [
      '',
      'not a cursor',
      'abc=',
      base64url('{}'),
      base64url('[1]'),
      base64url('null'),
      base64url(JSON.stringify({ v: 1, t: 0, i: 'x', f: MINE })),
      base64url(JSON.stringify({ v: 3, i: 'x', f: MINE })),
      base64url(JSON.stringify({ v: 2, i: '', f: MINE })),
      base64url(JSON.stringify({ v: 2, i: 'with space', f: MINE })),
      base64url(JSON.stringify({ v: 2, i: 'x'.repeat(65), f: MINE })),
      base64url(JSON.stringify({ v: 2, i: 42, f: MINE })),
      base64url(JSON.stringify({ v: 2, i: 'x' })),
      base64url(JSON.stringify({ v: 2, i: 'x', f: 42 })),
      'A'.repeat(300),
    ];
    for (const cursor of bad) {
      const error = thrownBy(() => decodeKeyEventCursor(cursor, MINE));
      expect(error, cursor).to.be.instanceOf(InvalidCursorError);
      expect((error as InvalidCursorError).code).to.equal('invalid_cursor');
    }
  });
});
