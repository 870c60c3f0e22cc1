import { problemType } from '../problem.js';

/**
 * The error body (DESIGN 3, Error body): application/problem+json after RFC 9457, plus a stable `code`
 * and the request id. Each status and code of the API has a schema of its own that pins them, so that the
 * document says exactly what comes back; a client sees their union as one Problem type.
 */

/** Every code the service sends today. New codes may be added within v1; clients should treat unknown ones by status. */
const PROBLEM_CODES = [
  'validation_failed',
  'invalid_cursor',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'internal_error',
  'service_unavailable',
  'not_ready',
  // Refused by Node's HTTP parser before routing (adapters/http/client-errors.ts).
  'malformed_request',
  'headers_too_large',
  'request_timeout',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

type PropertySchema = { readonly type: string; readonly description: string };

/** How an API's problem items differ from the public API's: what a pointer may point at, and properties beside `parameter`. */
export interface ProblemItemOptions {
  readonly pointerDescription?: string;
  readonly extraItemProperties?: Readonly<Record<string, PropertySchema>>;
}

/**
 * The problem schemas of an API with the given codes (the public API's, the management API's): the item
 * schema and, per status and code, the problem schema. The codes only type the builder; the body is the same for every API.
 */
export function problemSchemas<Code extends string>(_codes: readonly Code[], options: ProblemItemOptions = {}) {
  const itemSchema = {
    type: 'object',
    required: ['pointer', 'message'],
    properties: {
      pointer: { type: 'string', description: options.pointerDescription ?? 'JSON Pointer into the body ("" is the whole body); for a query parameter, /<name>.' },
      parameter: { type: 'string', description: 'The query parameter, for problems of the query string.' },
      ...options.extraItemProperties,
      message: { type: 'string', description: 'What is wrong, in words a person can act on.' },
    },
  };
  return { itemSchema, schema: (status: number, code: Code, description: string) => problemSchemaOf(status, code, description) };
}

/**
 * The problem of one status and code: a complete schema of its own (not an allOf over a general one), so
 * that a closed-world check of a body, the linter's or our tests', sees every property it may have.
 */
function problemSchemaOf(status: number, code: string, description: string) {
  const validation = code === 'validation_failed';
  // An invalid cursor is a problem with one parameter too, and names it like a validation problem does.
  const namesField = validation || code === 'invalid_cursor';
  return {
    type: 'object',
    required: ['type', 'title', 'status', 'code', 'detail', 'requestId', ...(namesField ? ['errors'] : [])],
    description,
    properties: {
      type: { type: 'string', const: problemType(code), description: 'Names the problem; stable.' },
      title: { type: 'string', description: 'A short summary of the problem type; the same for every occurrence.' },
      status: { type: 'integer', const: status, description: 'The HTTP status, repeated.' },
      code: { type: 'string', const: code, description: 'Stable and machine-readable: act on status and code.' },
      detail: { type: 'string', description: 'This occurrence explained; the wording may change, so do not parse it.' },
      requestId: { type: 'string', description: 'The X-Request-Id of the response: quote it when you report a problem.' },
      ...(validation
        ? { errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/ProblemItem' }, description: 'Every problem found, not just the first.' } }
        : {}),
      ...(code === 'invalid_cursor'
        ? { errors: { type: 'array', minItems: 1, maxItems: 1, items: { $ref: '#/components/schemas/ProblemItem' }, description: 'The cursor parameter, at `/cursor`.' } }
        : {}),
    },
  };
}

const publicProblems = problemSchemas(PROBLEM_CODES);

export const problemItemSchema = publicProblems.itemSchema;
export const problemSchema = publicProblems.schema;
