import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CallerContext } from './management-client.js';

/** What a posted form asks for; a token made for one action is refused for any other. */
export type FormAction = 'issue' | `roll:${string}` | `revoke:${string}`;

export type Redemption = 'ok' | 'invalid' | 'expired' | 'used';

export interface FormTokenOptions {
  /** The HMAC key (SERVICE_KEYS_FORM_SECRET); random per process when not configured. */
  readonly secret: Buffer;
  readonly ttlMs?: number;
  readonly now?: () => number;
  /** Spent tokens remembered at most; past it the oldest are forgotten (see redeem). */
  readonly maxRemembered?: number;
}

const DEFAULT_TTL_MS = 60 * 60 * 1000;
const CLOCK_SKEW_MS = 60_000;

/**
 * A token in every form, for two reasons the cross-site headers do not cover:
 *
 * - **Once only.** A secret is shown in the answer to a POST; reloading that answer, or going back to it,
 *   makes the browser send the POST again. The token is spent by the first, so the second issues no second
 *   key and shows no secret, only "this form was sent already".
 * - **Bound to the user and the action.** Without a session cookie, a token is the HMAC of the company, the
 *   platform user, the action (issue, or roll/revoke of one key id), a moment and a nonce. A page elsewhere
 *   cannot read one of ours, so it cannot post a form that passes, even in a browser that sends neither
 *   Sec-Fetch-Site nor Origin; and a token seen by one user is worth nothing in another's name.
 *
 * Spent nonces are kept in this process until their token would have expired anyway; several processes
 * behind one address need sticky sessions (or a shared store) for the once-only part.
 */
export class FormTokens {
  private readonly spent = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly maxRemembered: number;

  constructor(private readonly options: FormTokenOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.now = options.now ?? Date.now;
    this.maxRemembered = options.maxRemembered ?? 100_000;
  }

  static randomSecret(): Buffer {
    return randomBytes(32);
  }

  make(caller: CallerContext, action: FormAction): string {
    const issuedAt = String(this.now());
    const nonce = randomBytes(16).toString('base64url');
    return `${issuedAt}.${nonce}.${this.mac(caller, action, issuedAt, nonce)}`;
  }

  /** Checks the token and, when it is good, spends it. */
  redeem(caller: CallerContext, action: FormAction, token: string | null): Redemption {
    const [issuedAt, nonce, mac, ...rest] = (token ?? '').split('.');
    if (issuedAt === undefined || nonce === undefined || mac === undefined || rest.length > 0 || !/^\d{1,15}$/.test(issuedAt)) return 'invalid';
    const expected = Buffer.from(this.mac(caller, action, issuedAt, nonce));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    const now = this.now();
    const expiresAt = Number(issuedAt) + this.ttlMs;
    if (expiresAt <= now || Number(issuedAt) > now + CLOCK_SKEW_MS) return 'expired';
    this.forgetExpired(now);
    if (this.spent.has(nonce)) return 'used';
    this.spent.set(nonce, expiresAt);
    return 'ok';
  }

  private forgetExpired(now: number): void {
    // Insertion order is redemption order, close to expiry order: stop at the first one still valid.
    for (const [nonce, expiresAt] of this.spent) {
      if (expiresAt > now && this.spent.size < this.maxRemembered) break;
      this.spent.delete(nonce);
    }
  }

  private mac(caller: CallerContext, action: FormAction, issuedAt: string, nonce: string): string {
    const message = JSON.stringify([caller.companyId, caller.actor, action, issuedAt, nonce]);
    return createHmac('sha256', this.options.secret).update(message).digest('base64url');
  }
}
