/** `ik_<keyId>_<secret>` (DESIGN 3): keyId 12 base62 characters, secret at least 32. */
export const KEY_PREFIX = 'ik_';
export const KEY_ID_LENGTH = 12;
export const KEY_SECRET_LENGTH = 40;
export const KEY_SECRET_MIN_LENGTH = 32;
const KEY_FORMAT = new RegExp(`^${KEY_PREFIX}([0-9A-Za-z]{${KEY_ID_LENGTH}})_([0-9A-Za-z]{${KEY_SECRET_MIN_LENGTH},128})$`);

export interface ParsedServiceKey {
  readonly keyId: string;
  readonly secret: string;
}

export function formatServiceKey(keyId: string, secret: string): string {
  return `${KEY_PREFIX}${keyId}_${secret}`;
}

/** Splits a presented key; null when it cannot be one of ours. */
export function parseServiceKey(raw: string): ParsedServiceKey | null {
  const m = KEY_FORMAT.exec(raw);
  return m ? { keyId: m[1] as string, secret: m[2] as string } : null;
}
