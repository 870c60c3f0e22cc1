import { isIPv6 } from 'node:net';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface SubmitBudget {
  /** Applications accepted from one client address per window. */
  readonly points: number;
  readonly windowS: number;
}

export type SubmitVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterS: number };

/**
 * The portal's own budget of applications per client address, kept in the process (one portal instance is
 * the example's deployment; several would each keep their own). It stands between the form and the API key,
 * whose budget is shared by every visitor: one client sending in a loop exhausts its own allowance here and
 * never the key's.
 */
export class SubmitLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(budget: SubmitBudget) {
    this.limiter = new RateLimiterMemory({ points: budget.points, duration: budget.windowS, keyPrefix: 'career-portal-submit' });
  }

  async take(clientAddress: string): Promise<SubmitVerdict> {
    try {
      await this.limiter.consume(clientKey(clientAddress), 1);
      return { allowed: true };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }
}

/**
 * The bucket of an address: an IPv4 address as it is (also when the socket shows it IPv4-mapped), an IPv6
 * address by its /64, the block a provider gives one subscriber, who could otherwise take a fresh address,
 * and a fresh budget, for every application.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1] as string;
  if (!isIPv6(address.split('%')[0] as string)) return address === '' ? 'unknown' : address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros; `::` expanded, a zone id dropped. */
function ipv6Groups(address: string): string[] {
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const [left = '', right] = (address.split('%')[0] as string).split('::');
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const zeros = right === undefined ? [] : Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...zeros, ...tail].map((group) => Number.parseInt(group, 16).toString(16));
}
