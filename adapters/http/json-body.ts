import { bodyParser } from '@koa/bodyparser';
import type { HttpContext } from './http-state.js';
import { HttpProblem, validationProblem } from './problem.js';

/** A maximal valid application in Cyrillic is about 1.5 MB; 5 MiB leaves room (DESIGN 3, Body limits). */
export const JSON_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

const parse = bodyParser({
  enableTypes: ['json'],
  jsonLimit: JSON_BODY_LIMIT_BYTES,
  // Not strict: any JSON value parses, so that "not an object" gets its own message later.
  jsonStrict: false,
  encoding: 'utf-8',
  onError: (error) => {
    throw bodyProblem(error);
  },
});

/**
 * Reads the JSON body of a request. A Content-Type other than application/json (charset utf-8 or none)
 * is 415; a body over the limit 413, counted after any Content-Encoding is undone; malformed JSON 400.
 * Called by a route after authentication, so that nobody without a key makes us read 5 MiB.
 */
export async function readJsonBody(ctx: HttpContext): Promise<unknown> {
  requireJsonContentType(ctx.get('Content-Type'));
  await parse(ctx as never, async () => {});
  return (ctx.request as { body?: unknown }).body;
}

function requireJsonContentType(header: string): void {
  const [mediaType = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (mediaType === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return;
  throw new HttpProblem(
    415,
    'unsupported_media_type',
    'Unsupported media type',
    'The request body must be JSON, sent with Content-Type: application/json (UTF-8).',
  );
}

/** The errors of raw-body and co-body carry an HTTP status; anything else is a defect and stays as it is. */
function bodyProblem(error: unknown): unknown {
  const status = (error as { status?: unknown }).status;
  const type = (error as { type?: unknown }).type;
  if (typeof status !== 'number') return error;
  if (status === 413 || type === 'entity.too.large') {
    return new HttpProblem(413, 'payload_too_large', 'Payload too large', `The request body is larger than ${JSON_BODY_LIMIT_BYTES} bytes.`);
  }
  if (status === 415) {
    return new HttpProblem(415, 'unsupported_media_type', 'Unsupported media type', 'The request body has a Content-Encoding or charset that is not supported.');
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') {
    return validationProblem('The request body was not received whole.', [{ pointer: '', message: 'is incomplete' }]);
  }
  return validationProblem('The request body is not valid JSON.', [{ pointer: '', message: 'must be valid JSON' }]);
}
