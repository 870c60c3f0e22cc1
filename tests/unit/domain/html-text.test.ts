import { expect } from 'chai';
import fc from 'fast-check';
import { htmlToText, stripTags } from '../../../domain/vacancy/html-text.js';

/**
 * The tag rules as they were first written, as regular expressions: a block tag (opening or closing,
 * blanks allowed after `<` and `/`) becomes a line break, then any other `<…>` goes. Correct, but each
 * `<` without a `>` after it scanned the rest of the text (quadratic); the scans must agree with them.
 */
function tagsStrippedByRegex(html: string): string {
  return html.replace(/<\s*\/?\s*(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|blockquote)\b[^>]*>/gi, '\n').replace(/<[^>]*>/g, '');
}

describe('htmlToText (responsibilities from an HTML description)', () => {
  it('removes markup and puts block elements on lines of their own', () => {
    const html = '<p>Разработка <b>API</b></p><ul><li>Node.js</li><li>PostgreSQL</li></ul><div>Офис<br/>в Алматы</div>';
    expect(htmlToText(html)).to.equal('Разработка API\nNode.js\nPostgreSQL\nОфис\nв Алматы');
  });

  it('decodes named entities, in either case', () => {
    expect(htmlToText('R&amp;D &lt;team&gt; &quot;A&quot; &apos;B&apos; &laquo;Каспиан&raquo; 1&ndash;3 &mdash; ok&hellip;')).to.equal(
      'R&D <team> "A" \'B\' «Каспиан» 1–3 — ok…',
    );
    expect(htmlToText('A &AMP; B')).to.equal('A & B');
  });

  it('decodes decimal and hexadecimal character references, beyond the basic plane too', () => {
    expect(htmlToText('&#1055;&#x440;&#X438;&#1074;&#x435;&#x442; &#x1F600;')).to.equal('Привет 😀');
  });

  it('decodes each entity once, so escaped markup stays text', () => {
    expect(htmlToText('&amp;lt;p&amp;gt;')).to.equal('&lt;p&gt;');
    expect(htmlToText('<p>&lt;script&gt; is text</p>')).to.equal('<script> is text');
  });

  it('keeps unknown entities and impossible character references as written', () => {
    expect(htmlToText('a &bogus; b &#0; c &#x110000;')).to.equal('a &bogus; b &#0; c &#x110000;');
  });

  it('turns a no-break space into a space and collapses runs of spaces, trimming every line', () => {
    expect(htmlToText('<p>  Senior&nbsp;&nbsp;developer \t </p>\n\n<p> </p><p>Team\u00a0lead</p>')).to.equal('Senior developer\nTeam lead');
  });

  it('strips tags exactly as the regular expressions did, on any mix of tag fragments', () => {
    const piece = fc.constantFrom('<', '>', '/', ' ', '\u00a0', '\u2028', '\n', 'p', 'P', 'br', 'h1', 'h7', 'pre', 'b', 'Div', 'blockquote', '_', '1', 'x', 'ſ', '&amp;', '&lt;');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const html = pieces.join('');
        expect(stripTags(html)).to.equal(tagsStrippedByRegex(html));
      }),
      { numRuns: 5000 },
    );
  });

  it('answers hostile megabyte inputs exactly: a `<` without a `>` after it is text', () => {
    const mb = 1_000_000;
    expect(htmlToText('<'.repeat(mb))).to.equal('<'.repeat(mb));
    expect(htmlToText('<a'.repeat(mb / 2))).to.equal('<a'.repeat(mb / 2));
    expect(htmlToText('<p'.repeat(mb / 2))).to.equal('<p'.repeat(mb / 2));
    expect(htmlToText(`< /${' '.repeat(mb)}`)).to.equal('< /');
    expect(htmlToText(`${'<a'.repeat(mb / 2)}>text`)).to.equal('text');
    expect(htmlToText(`${'<p'.repeat(mb / 2)}>text`)).to.equal('text');
    expect(htmlToText(`${'<p>x'.repeat(mb / 4)}`)).to.equal(Array.from({ length: mb / 4 }, () => 'x').join('\n'));
    expect(htmlToText(`${'&#'.repeat(mb / 2)}`)).to.equal('&#'.repeat(mb / 2));
  });

  it('passes plain text through and gives an empty text for markup alone', () => {
    expect(htmlToText('Just text')).to.equal('Just text');
    expect(htmlToText('<p></p><br>')).to.equal('');
  });
});
