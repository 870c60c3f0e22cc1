/**
 * The one rule for an e-mail address (ADR 12): the WHATWG HTML "valid e-mail address", which is what a
 * browser's <input type="email"> enforces, with the letters and digits of every script admitted where that
 * rule admits ASCII ones, so that internationalised addresses (имя@почта.рф, a domain under .қаз) stay valid.
 * Neither a dot in the domain (user@localhost) nor any particular top-level domain is required; quoted local
 * parts and address literals ("a b"@example.kz, user@[127.0.0.1]) are refused, as browsers refuse them.
 * The OpenAPI document publishes this very text as the `pattern` of every e-mail field; it is read with the
 * `u` flag, as JSON Schema patterns are. The length bound is EMAIL_MAX_LENGTH, checked apart.
 */
export const EMAIL_ADDRESS_PATTERN =
  "^[\\p{L}\\p{M}\\p{N}.!#$%&'*+/=?^_`{|}~-]+" +
  '@[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]{0,61}[\\p{L}\\p{M}\\p{N}])?' +
  '(?:\\.[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]{0,61}[\\p{L}\\p{M}\\p{N}])?)*$';

const EMAIL_ADDRESS = new RegExp(EMAIL_ADDRESS_PATTERN, 'u');

export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(value);
}
