import { expect } from 'chai';
import { htmlToText } from '../../../domain/vacancy/html-text.js';

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

  it('passes plain text through and gives an empty text for markup alone', () => {
    expect(htmlToText('Just text')).to.equal('Just text');
    expect(htmlToText('<p></p><br>')).to.equal('');
  });
});
