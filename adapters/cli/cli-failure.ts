import { PLATFORM_TOKEN_ID_LENGTH, PLATFORM_TOKEN_PREFIX } from '../../domain/platform-token/platform-token-format.js';
import { KEY_ID_LENGTH, KEY_PREFIX } from '../../domain/service-key/service-key-format.js';
import { DomainError, ValidationError } from '../../domain/shared/domain-error.js';

/** Anything with the form of a whole service key, wherever a message might carry one. */
const WHOLE_KEY = new RegExp(`${KEY_PREFIX}([0-9A-Za-z]{${KEY_ID_LENGTH}})_[0-9A-Za-z]+`, 'g');
/** The same for a platform token. */
const WHOLE_PLATFORM_TOKEN = new RegExp(`${PLATFORM_TOKEN_PREFIX}([0-9A-Za-z]{${PLATFORM_TOKEN_ID_LENGTH}})_[0-9A-Za-z]+`, 'g');

/** A failure the CLI itself finds: an unreadable file, invalid JSON, a record that cannot be read. */
export class CliFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliFailure';
  }
}

/**
 * The one line printed on stderr for a failed command. A validation error lists every problem with its
 * JSON Pointer (`/2/salaryFrom: must be a number or null`), so a batch names its bad records by index.
 * Commands take care never to repeat a secret; should a message from further down carry a whole key
 * anyway, its secret is cut off here (the key id is kept, to tell which key it was).
 */
export function describeFailure(error: unknown): string {
  const text = describe(error);
  return hideKeys(text.replace(/\s*\r?\n\s*/g, ' ').trim());
}

/** The text with the secret of every whole key and platform token in it cut off. */
export function hideKeys(text: string): string {
  return text
    .replace(WHOLE_KEY, `${KEY_PREFIX}$1_(secret not shown)`)
    .replace(WHOLE_PLATFORM_TOKEN, `${PLATFORM_TOKEN_PREFIX}$1_(secret not shown)`);
}

function describe(error: unknown): string {
  if (error instanceof ValidationError) {
    const problems = error.problems.map((p) => `${p.pointer || '/'}: ${p.message}`).join('; ');
    return problems === '' ? error.message : `${error.message} ${problems}`;
  }
  if (error instanceof DomainError || error instanceof CliFailure) return error.message;
  if (error instanceof Error) return `unexpected failure: ${error.message || error.name}`;
  return `unexpected failure: ${String(error)}`;
}
