/**
 * A statement's text with every value taken out: each string literal (standard '...', escape E'...',
 * dollar-quoted $tag$...$tag$) and each number becomes `?`; keywords, names, quoted identifiers and
 * placeholders ($1) stay. Many statements reach pg with their values written into the text (MikroORM's
 * formatQuery, inlined batches), so the text as sent may hold keys, names, e-mail addresses and resumes: a
 * span carries only this.
 */
export function sqlWithoutValues(text: string): string {
  const known = SCRUBBED.get(text);
  if (known !== undefined) return known;
  const scrubbed = text.replace(TOKENS, (token: string) => (token.startsWith('"') ? token : '?'));
  // Statements with bound parameters repeat their text: those are scrubbed once. Inlined ones rarely repeat, and
  // may be large (a resume): only short texts are kept.
  if (text.length > SCRUBBED_TEXT_MAX) return scrubbed;
  if (SCRUBBED.size >= SCRUBBED_MAX) SCRUBBED.clear();
  SCRUBBED.set(text, scrubbed);
  return scrubbed;
}

/** The short texts scrubbed lately, emptied when full: at most 512 of 4 KB. */
const SCRUBBED = new Map<string, string>();
const SCRUBBED_MAX = 512;
const SCRUBBED_TEXT_MAX = 4096;

const TOKENS = new RegExp(
  [
    // A quoted identifier, kept as it is (so that a quote inside it starts no literal).
    /"(?:[^"]|"")*"/.source,
    // Dollar quoting: $$...$$ or $tag$...$tag$ (not a placeholder such as $1).
    /\$(?<tag>[A-Za-z_][A-Za-z0-9_]*)?\$[\s\S]*?\$\k<tag>\$/.source,
    // An escape string: backslash escapes as well as doubled quotes.
    /(?<![A-Za-z0-9_$])[eE]'(?:[^'\\]|''|\\[\s\S])*'/.source,
    // A standard string (standard_conforming_strings: a backslash is a character); unterminated: to the end.
    /'(?:[^']|'')*(?:'|$)/.source,
    // A number that is not part of a name or a placeholder.
    /(?<![A-Za-z0-9_$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.source,
  ].join('|'),
  'g',
);

/**
 * What a message of statements does, for its span's name: the first word of its first statement that is not
 * one of the SET LOCAL bounds or the BEGIN the unit of work sends in front of it (ADR 15), in capitals.
 * Undefined when there is no other.
 */
export function mainOperation(text: string): string | undefined {
  for (const statement of text.split(';')) {
    const word = /^\s*([A-Za-z]+)/.exec(statement)?.[1]?.toUpperCase();
    if (word !== undefined && word !== 'SET' && word !== 'BEGIN') return word;
  }
  return undefined;
}
