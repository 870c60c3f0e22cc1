/**
 * Text rules written as JSON Schema patterns (ECMA-262, read with the `u` flag), so that the OpenAPI document
 * publishes the rule the service applies. With the `u` flag a well-formed surrogate pair is one code point
 * beyond U+FFFF, and only a surrogate standing alone falls in U+D800..U+DFFF.
 */

/** No U+0000 (PostgreSQL text cannot hold it) and no unpaired surrogate (UTF-8 has no form for one). */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/**
 * Storable text with at least one character that is not white space (JavaScript's \s, the set String.trim
 * removes). Linear to match: the leading \s* and the character after it cannot overlap.
 */
export const NON_BLANK_TEXT_PATTERN = '^\\s*[^\\s\\u0000\\uD800-\\uDFFF][^\\u0000\\uD800-\\uDFFF]*$';
