import { JSON_BODY_LIMIT_BYTES } from '../../json/json-text.js';
import { ref } from '../../http/schemas/schema-helpers.js';
import { OPERATION_SCOPES, type ScopedOperation } from '../operation-scopes.js';
import { limitedHeaders, problemResponse } from './management-openapi-parts.js';

/** The 4xx answers particular to operations: what is wrong with the request, the thing it names, or the key's state. */
const validation = (detail: string, errors: { pointer: string; parameter?: string; header?: string; message: string }[]) => ({
  summary: 'The request failed validation',
  code: 'validation_failed' as const,
  title: 'Validation failed',
  detail,
  errors,
});

const actorMissing = {
  ...validation('The X-Actor header is invalid.', [{ pointer: '/X-Actor', header: 'X-Actor', message: 'is required: name the platform user who acts, 1 to 200 characters' }]),
  summary: 'No X-Actor header',
};
const unknownParameter = {
  ...validation('The query string failed validation.', [{ pointer: '/dryRun', parameter: 'dryRun', message: 'is not a parameter: this operation takes none' }]),
  summary: 'A query parameter, which this operation does not take',
};

export const operationResponses = {
  badRequest: () =>
    problemResponse(400, 'The X-Actor header is missing or invalid, or a query parameter was sent (the operation takes none); errors names each.', ref('ValidationProblem'), {
      actor: actorMissing,
      query: unknownParameter,
    }),

  badBody: (bodyErrors: { pointer: string; message: string }[]) =>
    problemResponse(400, 'The body failed validation or is not valid JSON, the X-Actor header is missing or invalid, or a query parameter was sent; errors lists every problem.', ref('ValidationProblem'), {
      body: validation('The request body failed validation.', bodyErrors),
      malformed: validation('The request body is not valid JSON.', [{ pointer: '', message: 'must be valid JSON' }]),
      actor: actorMissing,
    }),

  badEventsQuery: () =>
    problemResponse(400, 'The query failed validation (validation_failed, every problem listed), the X-Actor header is missing or invalid, or the cursor is not one of ours (invalid_cursor).', { oneOf: [ref('ValidationProblem'), ref('InvalidCursorProblem')] }, {
      query: validation('The query string failed validation.', [
        { pointer: '/limit', parameter: 'limit', message: 'must be a whole number from 1 to 100' },
        { pointer: '/since', parameter: 'since', message: 'is not a parameter of this operation, which takes limit, cursor' },
      ]),
      cursor: {
        summary: 'A cursor that is not one of ours',
        code: 'invalid_cursor',
        title: 'Invalid cursor',
        detail: 'The cursor is malformed. Pass nextCursor of the previous page unchanged.',
        errors: [{ pointer: '/cursor', parameter: 'cursor', message: 'The cursor is malformed. Pass nextCursor of the previous page unchanged.' }],
      },
      actor: actorMissing,
    }),

  forbidden: (operation: ScopedOperation) => {
    const scope = OPERATION_SCOPES[operation];
    const lacksScope = { summary: `A token without ${scope}`, code: 'forbidden' as const, title: 'Forbidden', detail: `The platform token lacks the scope ${scope}.` };
    return operation === 'createCompany'
      ? problemResponse(403, `The token lacks the scope ${scope}, or is limited to named companies (a new company would be outside them); detail says which.`, ref('ForbiddenProblem'), {
          scope: lacksScope,
          limited: { summary: 'A token limited to companies', code: 'forbidden', title: 'Forbidden', detail: 'The platform token is limited to named companies; this operation needs a token for every company.' },
        })
      : problemResponse(403, `The token lacks the scope ${scope}, or is limited to other companies (whether this one exists or not); detail names the scope or the company. The scope is checked first.`, ref('ForbiddenProblem'), {
          scope: lacksScope,
          company: { summary: 'A token limited to other companies', code: 'forbidden', title: 'Forbidden', detail: 'The platform token is not allowed for company 019a98c0-5e00-7000-8a00-000000000001.' },
        });
  },

  companyNotFound: () =>
    problemResponse(404, 'No company has this id.', ref('NotFoundProblem'), {
      notFound: { summary: 'An unknown company', code: 'not_found', title: 'Not found', detail: 'Company not found.' },
    }),

  keyNotFound: () =>
    problemResponse(404, 'No such company, or no such key in it: a key of another company answers as an unknown one, so that ids cannot be probed.', ref('NotFoundProblem'), {
      notFound: { summary: 'A key not of this company', code: 'not_found', title: 'Not found', detail: 'Service key not found.' },
    }),

  revokeConflict: () =>
    problemResponse(409, 'The key was changed by other requests at the same time, again and again: read it and try again.', ref('KeyChangedProblem'), {
      changed: { summary: 'Changed meanwhile', code: 'key_changed', title: 'Conflict', detail: 'Service key Q7rT2mZk9LpA was changed by another request at the same time; try again.' },
    }),

  rollConflict: () =>
    problemResponse(
      409,
      'The key cannot be rolled: it is revoked or expired (key_not_active), it was rolled already (key_already_rolled: roll its successor), or it was changed by other requests at the same time (key_changed).',
      { oneOf: [ref('KeyNotActiveProblem'), ref('KeyAlreadyRolledProblem'), ref('KeyChangedProblem')] },
      {
        notActive: { summary: 'A revoked or expired key', code: 'key_not_active', title: 'Conflict', detail: 'Service key Zr5Kp0Lm3NqW is revoked or expired: only an active key can be rolled.' },
        alreadyRolled: { summary: 'A key rolled before', code: 'key_already_rolled', title: 'Conflict', detail: 'Service key Q7rT2mZk9LpA was rolled already; its successor is b3XwN8vKe2Hd.' },
      },
    ),

  payloadTooLarge: () =>
    problemResponse(413, `The body is larger than ${JSON_BODY_LIMIT_BYTES} bytes (counted after any Content-Encoding is undone).`, ref('PayloadTooLargeProblem'), {
      tooLarge: { summary: 'A body over the limit', code: 'payload_too_large', title: 'Payload too large', detail: `The request body is larger than ${JSON_BODY_LIMIT_BYTES} bytes.` },
    }),

  unsupportedMediaType: () =>
    problemResponse(415, 'The body is not sent as Content-Type: application/json (UTF-8).', ref('UnsupportedMediaTypeProblem'), {
      mediaType: { summary: 'A form post', code: 'unsupported_media_type', title: 'Unsupported media type', detail: 'The request body must be JSON, sent with Content-Type: application/json (UTF-8).' },
    }),
};

export const json = (description: string, schemaName: string, example: unknown, headers: object = limitedHeaders) => ({
  description,
  headers,
  content: { 'application/json': { schema: ref(schemaName), example } },
});
