import { isIPv4, isIPv6 } from 'node:net';

/** An IPv4 address with a port, as some proxies write X-Forwarded-For entries. */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/;
/** An IPv6 address in brackets, with or without a port. */
const BRACKETED = /^\[([^\]]+)\](?::\d+)?$/;

/**
 * The part of a client address that a rate-limit bucket is keyed by. An IPv4 address is itself; an IPv6
 * address is its /64, the block a single subscriber is usually given, so that walking through the 2^64
 * addresses of one's own block buys no new budget (an IPv4 address mapped into IPv6 is the IPv4 address).
 * Any spelling of one address gives the same group: zeros and case are normalised, a zone and a port dropped.
 * Text that is no address at all is kept as it is (trimmed), so it still names one bucket.
 */
export function addressGroupOf(address: string): string {
  const text = unwrapped(address.trim());
  if (isIPv4(text)) return text;
  const withoutZone = text.split('%')[0]!;
  if (!isIPv6(withoutZone)) return text;
  const groups = hextetsOf(withoutZone);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

function unwrapped(address: string): string {
  return BRACKETED.exec(address)?.[1] ?? IPV4_WITH_PORT.exec(address)?.[1] ?? address;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail converted. */
function hextetsOf(address: string): number[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined): number[] =>
    part === undefined || part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
