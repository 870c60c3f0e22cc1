import { closedObject, nullableStr, ref, str } from './schema-helpers.js';

export const pageSchema = (itemSchemaName: string) =>
  closedObject({
    items: { type: 'array', items: ref(itemSchemaName) },
    nextCursor: { ...nullableStr(), description: 'Null exactly on the last page.' },
  });

export const applicationCreatedSchema = closedObject({ id: str(), status: { type: 'string', const: 'created' } });
export const applicationDuplicateSchema = closedObject({ id: { ...str(), description: 'The id of the earlier card.' }, status: { type: 'string', const: 'duplicate' } });

const problemItemSchema = {
  type: 'object',
  required: ['pointer', 'message'],
  properties: {
    pointer: { type: 'string', description: 'JSON Pointer into the body; for a query parameter, /<name>.' },
    parameter: { type: 'string', description: 'The query parameter, for problems of the query string.' },
    message: { type: 'string' },
  },
};

/** Every error response, as application/problem+json (RFC 9457 plus a stable code and the request id). */
export const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
  properties: {
    type: { type: 'string', description: 'urn:problem-type:integration-api:<code>' },
    title: str(),
    status: { type: 'integer' },
    code: {
      type: 'string',
      description:
        'Stable: validation_failed, invalid_cursor, unauthorized, forbidden, not_found, method_not_allowed, rate_limited, ' +
        'payload_too_large, unsupported_media_type, internal_error, not_ready.',
    },
    detail: str(),
    requestId: { type: 'string', description: 'The X-Request-Id of the request.' },
    errors: { type: 'array', items: problemItemSchema, description: 'Every problem found, for 400 validation_failed.' },
  },
};
