/** `pt_<tokenId>_<secret>` (issue 14): tokenId 12 base62 characters, secret 40 (at least 32 accepted). */
export const PLATFORM_TOKEN_PREFIX = 'pt_';
export const PLATFORM_TOKEN_ID_LENGTH = 12;
export const PLATFORM_TOKEN_SECRET_LENGTH = 40;
export const PLATFORM_TOKEN_SECRET_MIN_LENGTH = 32;
const TOKEN_FORMAT = new RegExp(
  `^${PLATFORM_TOKEN_PREFIX}([0-9A-Za-z]{${PLATFORM_TOKEN_ID_LENGTH}})_([0-9A-Za-z]{${PLATFORM_TOKEN_SECRET_MIN_LENGTH},128})$`,
);
const TOKEN_ID_FORMAT = new RegExp(`^[0-9A-Za-z]{${PLATFORM_TOKEN_ID_LENGTH}}$`);

export interface ParsedPlatformToken {
  readonly tokenId: string;
  readonly secret: string;
}

export function formatPlatformToken(tokenId: string, secret: string): string {
  return `${PLATFORM_TOKEN_PREFIX}${tokenId}_${secret}`;
}

/** Splits a presented token; null when it cannot be one of ours. */
export function parsePlatformToken(raw: string): ParsedPlatformToken | null {
  const m = TOKEN_FORMAT.exec(raw);
  return m ? { tokenId: m[1] as string, secret: m[2] as string } : null;
}

/** Whether a value has the form of a token id (which is no secret). */
export function isPlatformTokenId(value: string): boolean {
  return TOKEN_ID_FORMAT.test(value);
}
