import type { Dictionary } from './dictionary.js';

export const EN: Dictionary = {
  language: 'en',
  locale: 'en-GB',
  languageName: 'English',
  otherLanguages: 'Language',
  skipToContent: 'Skip to content',
  title: 'Service keys',
  intro:
    'Service keys let the company’s other systems (a career site, an ATS, HR analytics) call the integration API on its behalf. Give each system a key of its own, with only the scopes it needs.',
  companyLabel: 'Company',

  time: {
    units: {
      minute: { one: 'minute', other: 'minutes' },
      hour: { one: 'hour', other: 'hours' },
      day: { one: 'day', other: 'days' },
      month: { one: 'month', other: 'months' },
      year: { one: 'year', other: 'years' },
    },
    justNow: 'just now',
    soon: 'in less than a minute',
    ago: (span) => `${span} ago`,
    in: (span) => `in ${span}`,
  },

  keys: {
    heading: 'Keys',
    none: 'The company has no service keys yet. Issue the first one below.',
    id: 'Key ID',
    scopes: 'Scopes',
    status: 'Status',
    created: 'Created',
    expires: 'Expires',
    lastUse: 'Last use',
    statuses: { active: 'Active', expired: 'Expired', revoked: 'Revoked' },
    createdBy: (when, who) => `${when} by ${who}`,
    revokedBy: (when, who) => `Revoked ${when} by ${who}`,
    revokedAt: (when) => `Revoked ${when}`,
    neverExpires: 'Never',
    expiresIn: (when) => `expires ${when}`,
    expiredAgo: (when) => `expired ${when}`,
    neverUsed: 'never used',
    usedAgo: (when) => `used ${when}`,
    rolledTo: (keyId) => `Rolled: replaced by key ${keyId}`,
    rolledFrom: (keyId) => `Replaces key ${keyId}`,
    replaced: (successorId) => `replaced by key ${successorId}`,
    replacedUntil: (successorId, until) => `replaced by key ${successorId}, works until ${until}`,
    roll: 'Roll…',
    revoke: 'Revoke…',
    keyLabel: (name, keyId, replaced) => `“${name}”, ID ${keyId}${replaced === null ? '' : `, ${replaced}`}`,
    rollLabel: (key) => `Roll the key ${key}`,
    revokeLabel: (key) => `Revoke the key ${key}`,
  },

  scopes: {
    'vacancies:read': {
      title: 'Read vacancies',
      explanation: 'The company’s vacancies: titles, salaries, descriptions. What a career site needs to show them.',
    },
    'candidates:read': {
      title: 'Read candidates',
      explanation:
        'Candidates and their applications. Exposes personal data: names, contacts (e-mail, phone) and resumes. Give it only to a system that must process candidates, such as an ATS.',
    },
    'applications:write': {
      title: 'Send applications',
      explanation: 'Creates candidates from applications, as a career site’s form does. It cannot read them back.',
    },
  },
  personalData: 'Personal data',

  issue: {
    heading: 'Issue a new key',
    name: 'Name',
    nameHint: 'Which system will use it, such as “career site” or “ATS sync”. The name is shown in the list and the event trail.',
    scopesLegend: 'Scopes: what the key may do',
    expiry: 'Expires',
    expiryChoices: { never: 'Never', '7d': 'In 7 days', '30d': 'In 30 days', '90d': 'In 90 days', '365d': 'In 1 year' },
    submit: 'Issue key',
    nameMissing: 'Give the key a name.',
    nameTooLong: (max) => `At most ${max} characters.`,
    scopesMissing: 'Choose at least one scope.',
    checkFields: 'Please check the marked fields.',
  },

  secret: {
    issuedTitle: 'Your new key',
    rolledTitle: 'The new key',
    label: 'Secret key',
    warning:
      'Copy it now and store it in the system that will use it. It will not be shown again: only a hash of it is kept. If it is lost, roll the key or issue a new one.',
    copy: 'Copy',
    copied: 'Copied to the clipboard.',
    copyFallback: 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
    rolledNote: (oldName, until) => `The old key “${oldName}” keeps working until ${until}. Switch the system that uses it to the new key before then.`,
    back: 'Back to the keys',
  },

  confirm: {
    revokeTitle: (name) => `Revoke the key “${name}”?`,
    revokeText:
      'Every system that uses this key loses access within a few seconds: its requests are refused from then on. This cannot be undone; to give access again, issue a new key.',
    revokeButton: 'Revoke key',
    rollTitle: (name) => `Roll the key “${name}”?`,
    rollText:
      'A new key with the same name and scopes is issued, and its secret is shown once. The current key keeps working for the time you choose, so that the system using it can switch without downtime; then it expires.',
    overlapLabel: 'The current key keeps working for',
    newKeyExpiry: 'The new key expires',
    overlaps: { '1h': '1 hour', '24h': '24 hours (recommended)', '3d': '3 days', '7d': '7 days' },
    rollButton: 'Roll key',
    cancel: 'Cancel',
    notActive: 'This key is revoked or expired, so it can no longer be rolled or revoked.',
    alreadyRolled: 'This key has been rolled already: roll the key that replaced it instead.',
  },

  access: {
    heading: 'What this page may do',
    token: (name, id) => `It acts with the platform token “${name}” (${id}), which an operator issued with these limits.`,
    scopes: 'Scopes',
    platformScopes: {
      'companies:read': 'read companies',
      'companies:write': 'create companies',
      'keys:read': 'see the keys',
      'keys:write': 'issue, roll and revoke keys',
      'key-events:read': 'read the key events',
    },
    companies: 'Companies',
    everyCompany: 'every company',
    expires: 'Token expires',
  },

  events: {
    heading: 'Event trail',
    recentHeading: 'Recent events',
    none: 'No events yet.',
    when: 'When',
    what: 'Event',
    key: 'Key',
    who: 'By',
    types: { issued: 'Issued', rolled: 'Rolled', revoked: 'Revoked', expired: 'Expired (first refused)', first_used: 'First used' },
    rolledDetail: (successor, until) => `replaced by ${successor}; the old key works until ${until}`,
    expiredDetail: (at) => `its expiry was ${at}`,
    viaAdminCli: 'via the admin CLI',
    viaPlatform: 'via the platform',
    byService: 'the service',
    all: 'Full event trail',
    older: 'Older events',
    newest: 'Newest events',
  },

  notices: {
    revoked: (name) => `The key “${name}” is revoked.`,
  },

  errors: {
    refused: 'The key service refused the request:',
    notFoundTitle: 'Page not found',
    notFound: 'There is no such page here.',
    keyNotFound: 'There is no such key, or it belongs to another company.',
    crossSiteTitle: 'Request refused',
    crossSite: 'This form was sent from another site, so nothing was done. Open the service keys page and use its own forms.',
    formExpiredTitle: 'The form has expired',
    formExpired: 'The form was open too long, or the page server has restarted since. Nothing was done; please try again.',
    alreadySentTitle: 'This form was sent already',
    alreadySent: {
      issue:
        'This form was sent a second time (a double click, or a reload of the page), so nothing was done again. But the first sending may have issued a key, and its secret was only in the answer to that sending, which this page has replaced: it cannot be shown again. If you did not copy it, find the key issued just now in the list, revoke it, and issue a new one.',
      roll:
        'This form was sent a second time (a double click, or a reload of the page), so nothing was done again. But the first sending may have rolled the key: a new key was issued, and its secret was only in the answer to that sending, which this page has replaced: it cannot be shown again. If you did not copy it, find the new key in the list (it says “Replaces key …”), revoke it, and issue a new key with the same scopes. The old key keeps working until the time you chose.',
      revoke: 'This form was sent a second time (a double click, or a reload of the page), so nothing was done again. The list shows whether the key is revoked.',
    },
    formTooLarge: 'The form is too large.',
    unreachable: 'The key service cannot be reached right now. Please try again in a minute.',
    busy: 'There are too many requests right now. Please try again in a minute.',
    unauthorized: 'This page is not allowed to manage keys: its platform token is wrong or revoked. Ask the administrator to check it.',
    badResponse: 'The key service sent an answer this page cannot read.',
    somethingWentWrong: 'Something went wrong. Please try again later.',
    noIdentityTitle: 'Not signed in',
    noIdentity: 'The platform did not say who you are, so this page cannot act for you. Open it from the platform.',
    requestId: (id) => `Request ID: ${id}`,
    backToKeys: 'Back to the keys',
  },
};
