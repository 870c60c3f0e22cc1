/**
 * A WAL position (pg_lsn) as a number of bytes: PostgreSQL writes it as two hexadecimal halves, `X/Y`, the high
 * and the low 32 bits. Compared and subtracted as bigint, since positions pass 2^53 on a long-lived server.
 */
export type WalPosition = bigint;

/** A pg_lsn's text (`16/B374D848`) as a WalPosition; throws on anything else, so that no guess is ever compared. */
export function walPositionOf(text: string): WalPosition {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text.trim());
  if (match === null) throw new Error(`Not a WAL position (pg_lsn): "${text}".`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The text PostgreSQL writes for a position: upper-case hexadecimal halves without leading zeros. */
export function walPositionText(position: WalPosition): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}
