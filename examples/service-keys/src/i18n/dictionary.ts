import type { PlatformScope } from '../../../../domain/platform-token/platform-scope.js';
import type { Scope } from '../../../../domain/service-key/scope.js';
import type { KeyEventType, KeyStatus } from '../management-client.js';

export type Language = 'en' | 'ru';
export const LANGUAGES: readonly Language[] = ['en', 'ru'];

/** A word for each plural category the language uses (Intl.PluralRules picks one); `other` is always there. */
export interface PluralForms {
  readonly one: string;
  readonly few?: string;
  readonly many?: string;
  readonly other: string;
}

export const TIME_UNITS = ['minute', 'hour', 'day', 'month', 'year'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];


/** How long a rolled key keeps working, as offered on the roll form (the API takes at most 7 days). */
export const ROLL_OVERLAPS = ['1h', '24h', '3d', '7d'] as const;
export type RollOverlap = (typeof ROLL_OVERLAPS)[number];

/** The forms that post: issue a key, roll one, revoke one. */
export type SentForm = 'issue' | 'roll' | 'revoke';

/** The expiry choices of the issue form. */
export const EXPIRY_CHOICES = ['never', '7d', '30d', '90d', '365d'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/**
 * Every word the page shows, one file per language (en.ts, ru.ts). Sentences that take a value are small
 * functions, so that each language puts the value where its grammar wants it.
 */
export interface Dictionary {
  readonly language: Language;
  /** For Intl: dates and plural rules. */
  readonly locale: string;
  /** This language's own name, for the switcher. */
  readonly languageName: string;
  readonly otherLanguages: string;
  readonly skipToContent: string;
  readonly title: string;
  readonly intro: string;
  readonly companyLabel: string;

  readonly time: {
    readonly units: Readonly<Record<TimeUnit, PluralForms>>;
    readonly justNow: string;
    readonly soon: string;
    readonly ago: (span: string) => string;
    readonly in: (span: string) => string;
  };

  readonly keys: {
    readonly heading: string;
    readonly none: string;
    readonly id: string;
    readonly scopes: string;
    readonly status: string;
    readonly created: string;
    readonly expires: string;
    readonly lastUse: string;
    readonly statuses: Readonly<Record<KeyStatus, string>>;
    readonly createdBy: (when: string, who: string) => string;
    readonly revokedBy: (when: string, who: string) => string;
    readonly revokedAt: (when: string) => string;
    readonly neverExpires: string;
    readonly expiresIn: (when: string) => string;
    readonly expiredAgo: (when: string) => string;
    readonly neverUsed: string;
    readonly usedAgo: (when: string) => string;
    readonly rolledTo: (keyId: string) => string;
    readonly rolledFrom: (keyId: string) => string;
    /** Beside the name of a rolled key, so that it is not taken for its successor, which has the same name. */
    readonly replaced: (successorId: string) => string;
    readonly replacedUntil: (successorId: string, until: string) => string;
    readonly roll: string;
    readonly revoke: string;
    /**
     * Screen readers read the action links out of the card, so each names its key: by name, id, and for a
     * rolled key `replaced`, since a key and its successor share their name.
     */
    readonly keyLabel: (name: string, keyId: string, replaced: string | null) => string;
    readonly rollLabel: (key: string) => string;
    readonly revokeLabel: (key: string) => string;
  };

  readonly scopes: Readonly<Record<Scope, { readonly title: string; readonly explanation: string }>>;
  readonly personalData: string;

  /** What the page itself may do: the scopes of its platform token (GET /internal/v1/platform-token). */
  readonly access: {
    readonly heading: string;
    readonly token: (name: string, id: string) => string;
    readonly scopes: string;
    readonly platformScopes: Readonly<Record<PlatformScope, string>>;
    readonly companies: string;
    readonly everyCompany: string;
    readonly expires: string;
  };

  readonly issue: {
    readonly heading: string;
    readonly name: string;
    readonly nameHint: string;
    readonly scopesLegend: string;
    readonly expiry: string;
    readonly expiryChoices: Readonly<Record<ExpiryChoice, string>>;
    readonly submit: string;
    readonly nameMissing: string;
    readonly nameTooLong: (max: number) => string;
    readonly scopesMissing: string;
    readonly checkFields: string;
  };

  readonly secret: {
    readonly issuedTitle: string;
    readonly rolledTitle: string;
    readonly label: string;
    readonly warning: string;
    readonly copy: string;
    readonly copied: string;
    readonly copyFallback: string;
    readonly rolledNote: (oldName: string, until: string) => string;
    readonly back: string;
  };

  readonly confirm: {
    readonly revokeTitle: (name: string) => string;
    readonly revokeText: string;
    readonly revokeButton: string;
    readonly rollTitle: (name: string) => string;
    readonly rollText: string;
    readonly overlapLabel: string;
    readonly newKeyExpiry: string;
    readonly overlaps: Readonly<Record<RollOverlap, string>>;
    readonly rollButton: string;
    readonly cancel: string;
    readonly notActive: string;
    readonly alreadyRolled: string;
  };

  readonly events: {
    readonly heading: string;
    readonly recentHeading: string;
    readonly none: string;
    readonly when: string;
    readonly what: string;
    readonly key: string;
    readonly who: string;
    readonly types: Readonly<Record<KeyEventType, string>>;
    readonly rolledDetail: (successor: string, until: string) => string;
    readonly expiredDetail: (at: string) => string;
    readonly viaAdminCli: string;
    readonly viaPlatform: string;
    readonly byService: string;
    readonly all: string;
    readonly older: string;
    readonly newest: string;
  };

  readonly notices: {
    readonly revoked: (name: string) => string;
  };

  readonly errors: {
    readonly refused: string;
    readonly notFoundTitle: string;
    readonly notFound: string;
    readonly keyNotFound: string;
    readonly crossSiteTitle: string;
    readonly crossSite: string;
    readonly formExpiredTitle: string;
    readonly formExpired: string;
    readonly alreadySentTitle: string;
    /**
     * A form sent a second time (a double click, or a reload of the answer): per form, since a first sending
     * of the issue or roll form may have made a key whose secret nobody saw.
     */
    readonly alreadySent: Readonly<Record<SentForm, string>>;
    readonly formTooLarge: string;
    readonly unreachable: string;
    readonly busy: string;
    readonly unauthorized: string;
    readonly badResponse: string;
    readonly somethingWentWrong: string;
    readonly noIdentityTitle: string;
    readonly noIdentity: string;
    readonly requestId: (id: string) => string;
    readonly backToKeys: string;
  };
}
