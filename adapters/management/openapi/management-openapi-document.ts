import { ref } from '../../http/schemas/schema-helpers.js';
import type { ManagementSettings } from '../management-dependencies.js';
import { MANAGEMENT_ROOT } from '../management-state.js';
import { KEY_EVENTS_PARAMETERS } from '../schemas/key-events-parameters.schema.js';
import { managementProblemItemSchema, managementProblemSchema } from '../schemas/management-problem.schema.js';
import { createCompanyRequestSchema, issueKeyRequestSchema, rollKeyRequestSchema } from '../schemas/management-request.schema.js';
import * as R from '../schemas/management-response.schema.js';
import * as X from './management-openapi-examples.js';
import { OPERATION_SCOPES, type ScopedOperation } from '../operation-scopes.js';
import { commonResponses, createdHeaders, limitedHeaders, managementHeaders, managementParameters, parameterRef } from './management-openapi-parts.js';
import { json, operationResponses as O } from './management-openapi-responses.js';

const ACTOR_AND_ID = [parameterRef('Actor'), parameterRef('RequestId')];
const COMPANY = [parameterRef('CompanyId'), ...ACTOR_AND_ID];
const KEY = [parameterRef('CompanyId'), parameterRef('KeyId'), ...ACTOR_AND_ID];
const TAKES_NO_QUERY = 'It takes no query parameters: one sent is a 400 validation_failed naming it.';

/** The one scope an operation needs, as its security requirement (OpenAPI 3.1 lets a bearer scheme list roles). */
const needs = (operation: ScopedOperation) => ({ operationId: operation, security: [{ platformToken: [OPERATION_SCOPES[operation]] }] });

const body = (schemaName: string, example: unknown, required = true) => ({
  required,
  content: { 'application/json': { schema: ref(schemaName), example } },
});

/**
 * The management API's OpenAPI 3.1 document, built from the very schemas that validate requests (ajv) and
 * describe answers, with every status and header the service sends. Served at /internal/v1/openapi.json.
 */
export function buildManagementOpenApiDocument(settings: ManagementSettings) {
  const { rateLimitPoints: points, rateLimitWindowS: windowS } = settings;
  const always = () => ({ '401': commonResponses.unauthorized(), '429': commonResponses.rateLimited(points, windowS), '500': commonResponses.internalError(), '503': commonResponses.serviceUnavailable() });
  const bodyErrors = { '413': O.payloadTooLarge(), '415': O.unsupportedMediaType() };
  return {
    openapi: '3.1.0',
    info: { title: 'Hiring platform management API', version: '1.0.0', description: description(points, windowS, settings.tokenCeilingPoints) },
    servers: [{ url: MANAGEMENT_ROOT, description: 'The management listener this document is served from (MANAGEMENT_HOST:MANAGEMENT_PORT); never the public port.' }],
    security: [{ platformToken: [] }],
    tags: [
      { name: 'Companies', description: 'The companies of the platform, which keys belong to.' },
      { name: 'Keys', description: "A company's service keys for the public API: issue, revoke, roll." },
      { name: 'Key events', description: 'The audit trail of the keys: who did what, when.' },
      { name: 'Platform token', description: 'The token a request carries: what it may do.' },
      { name: 'Document', description: 'This description of the API.' },
    ],
    paths: {
      '/companies': {
        post: {
          ...needs('createCompany'), tags: ['Companies'], summary: 'Create a company',
          description: `A new company, with an id of the service's making. ${TAKES_NO_QUERY}`,
          parameters: ACTOR_AND_ID,
          requestBody: body('CreateCompanyRequest', X.createCompanyExample),
          responses: { '201': json('The company was created; Location is where it is read.', 'Company', X.companyExample, createdHeaders), '400': O.badBody([{ pointer: '/name', message: 'must not be blank' }]), ...bodyErrors, '403': O.forbidden('createCompany'), ...always() },
        },
      },
      '/companies/{companyId}': {
        get: {
          ...needs('getCompany'), tags: ['Companies'], summary: 'Read a company', description: `The company's name and creation time. ${TAKES_NO_QUERY}`,
          parameters: COMPANY,
          responses: { '200': json('The company.', 'Company', X.companyExample), '400': O.badRequest(), '403': O.forbidden('getCompany'), '404': O.companyNotFound(), ...always() },
        },
      },
      '/companies/{companyId}/keys': {
        get: {
          ...needs('listKeys'), tags: ['Keys'], summary: "List a company's keys",
          description: `Every key of the company, oldest first, with its status now. Never a secret or its hash. ${TAKES_NO_QUERY}`,
          parameters: COMPANY,
          responses: { '200': json('The keys.', 'KeyList', X.keyListExample), '400': O.badRequest(), '403': O.forbidden('listKeys'), '404': O.companyNotFound(), ...always() },
        },
        post: {
          ...needs('issueKey'), tags: ['Keys'], summary: 'Issue a key',
          description: `A new key with the scopes given. The answer carries the key itself, once: it is stored only as a hash. Recorded as an issued event by X-Actor. ${TAKES_NO_QUERY}`,
          parameters: COMPANY,
          requestBody: body('IssueKeyRequest', X.issueKeyExample),
          responses: {
            '201': json('The key was issued; key is its secret, shown this once. Location is where the key is read (without it).', 'IssuedKey', X.issuedKeyExample, createdHeaders),
            '400': O.badBody([{ pointer: '/scopes/1', message: 'must be one of vacancies:read, candidates:read, applications:write' }, { pointer: '/expiresAt', message: 'must be in the future' }]),
            '403': O.forbidden('issueKey'), '404': O.companyNotFound(), ...bodyErrors, ...always(),
          },
        },
      },
      '/companies/{companyId}/keys/{keyId}': {
        get: {
          ...needs('getKey'), tags: ['Keys'], summary: 'Read a key',
          description: `One key of the company, as the list shows it, with its status now. Never its secret or its hash. ${TAKES_NO_QUERY}`,
          parameters: KEY,
          responses: { '200': json('The key.', 'Key', X.keyExample), '400': O.badRequest(), '403': O.forbidden('getKey'), '404': O.keyNotFound(), ...always() },
        },
      },
      '/companies/{companyId}/keys/{keyId}/revoke': {
        post: {
          ...needs('revokeKey'), tags: ['Keys'], summary: 'Revoke a key',
          description: `The key stops working at once on every instance of the public API (within KEY_CACHE_TTL_MS, at most 5 s). Revoking a revoked key changes nothing and answers it as it is. No body is read. ${TAKES_NO_QUERY}`,
          parameters: KEY,
          responses: { '200': json('The key, revoked.', 'Key', { ...X.keyExample, status: 'revoked', revokedAt: '2026-11-24T10:05:00.000Z', revokedBy: X.keyExample.createdBy }), '400': O.badRequest(), '403': O.forbidden('revokeKey'), '404': O.keyNotFound(), '409': O.revokeConflict(), ...always() },
        },
      },
      '/companies/{companyId}/keys/{keyId}/roll': {
        post: {
          ...needs('rollKey'), tags: ['Keys'], summary: 'Roll a key',
          description:
            'A new key with the same name and scopes; the old one keeps working until oldKeyExpiresAt (24 hours by default, at most 7 days), ' +
            'so that an integrator can switch without downtime. Only an active key that was not rolled before can be rolled. Recorded as a ' +
            `rolled event (the old key) and an issued event (the new one). The body may be left out. ${TAKES_NO_QUERY}`,
          parameters: KEY,
          requestBody: body('RollKeyRequest', X.rollKeyExample, false),
          responses: {
            '201': json('The key was rolled; issued.key is the new secret, shown this once. Location is where the new key is read.', 'RollResult', X.rollExample, createdHeaders),
            '400': O.badBody([{ pointer: '/oldKeyExpiresAt', message: 'must be at most 7 days from now' }]),
            '403': O.forbidden('rollKey'), '404': O.keyNotFound(), '409': O.rollConflict(), ...bodyErrors, ...always(),
          },
        },
      },
      '/companies/{companyId}/key-events': {
        get: {
          ...needs('listKeyEvents'), tags: ['Key events'], summary: "The company's key events",
          description:
            'Issued, rolled, revoked, expired (when a key was first refused for its expiry) and first used; newest first in the order the registry recorded them ' +
            '(not by `at`), paged by cursor. An event recorded while you page comes above your first page, never below a place you passed: ' +
            'a reader that pages down to the first event it already knows has missed none. A query parameter not listed here is a 400 naming it.',
          parameters: [parameterRef('CompanyId'), ...KEY_EVENTS_PARAMETERS, ...ACTOR_AND_ID],
          responses: { '200': json('One page of events.', 'KeyEventPage', X.keyEventPageExample), '400': O.badEventsQuery(), '403': O.forbidden('listKeyEvents'), '404': O.companyNotFound(), ...always() },
        },
      },
      '/platform-token': {
        get: {
          operationId: 'getPlatformToken', tags: ['Platform token'], summary: 'The token of this request',
          description: `Its id, name, scopes, the companies it is limited to and its expiry, so that a platform service can show what it may do. The one operation that needs no scope. ${TAKES_NO_QUERY}`,
          parameters: ACTOR_AND_ID,
          responses: { '200': json('The token, never its secret.', 'PlatformToken', X.platformTokenExample), '400': O.badRequest(), ...always() },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getManagementOpenApiDocument', tags: ['Document'], summary: 'This document',
          description: 'Needs no token and no X-Actor; counts against the rate limit of the client address.',
          security: [], parameters: [parameterRef('RequestId')],
          responses: { '200': { description: 'The OpenAPI 3.1 document.', headers: limitedHeaders, content: { 'application/json': { schema: { type: 'object' } } } }, '429': commonResponses.rateLimited(points, windowS), '500': commonResponses.internalError() },
        },
      },
    },
    components: {
      securitySchemes: {
        platformToken: {
          type: 'http', scheme: 'bearer', bearerFormat: 'pt_<tokenId>_<secret>',
          description: 'A platform token, issued by an operator with `admin platform-token issue --name N` and shown once. A missing, malformed, unknown, revoked or expired token is a 401 with WWW-Authenticate: Bearer realm="management", and error="invalid_token" after it when a token was sent.',
        },
      },
      parameters: managementParameters,
      headers: managementHeaders,
      schemas: {
        CreateCompanyRequest: createCompanyRequestSchema, IssueKeyRequest: issueKeyRequestSchema, RollKeyRequest: rollKeyRequestSchema,
        Company: R.companySchema, Key: R.keyViewSchema, IssuedKey: R.issuedKeySchema, RollResult: R.rollResultSchema, KeyList: R.keyListSchema,
        KeyEvent: R.keyEventSchema, KeyEventPage: R.keyEventPageSchema, PlatformToken: R.platformTokenSchema, ProblemItem: managementProblemItemSchema,
        ValidationProblem: managementProblemSchema(400, 'validation_failed', 'A 400: the request failed validation; errors lists every problem.'),
        InvalidCursorProblem: managementProblemSchema(400, 'invalid_cursor', 'A 400: the cursor is not one of ours.'),
        UnauthorizedProblem: managementProblemSchema(401, 'unauthorized', 'A 401: no valid platform token.'),
        ForbiddenProblem: managementProblemSchema(403, 'forbidden', 'A 403: the token lacks the scope, or is limited to other companies; detail names what is missing.'),
        NotFoundProblem: managementProblemSchema(404, 'not_found', 'A 404: no such company, or no such key in it.'),
        KeyNotActiveProblem: managementProblemSchema(409, 'key_not_active', 'A 409: the key is revoked or expired.'),
        KeyAlreadyRolledProblem: managementProblemSchema(409, 'key_already_rolled', 'A 409: the key was rolled already; roll its successor.'),
        KeyChangedProblem: managementProblemSchema(409, 'key_changed', 'A 409: other requests changed the key at the same time; try again.'),
        PayloadTooLargeProblem: managementProblemSchema(413, 'payload_too_large', 'A 413: the body is too large.'),
        UnsupportedMediaTypeProblem: managementProblemSchema(415, 'unsupported_media_type', 'A 415: the body is not JSON.'),
        RateLimitedProblem: managementProblemSchema(429, 'rate_limited', 'A 429: the request budget is spent.'),
        InternalErrorProblem: managementProblemSchema(500, 'internal_error', 'A 500: an unexpected error.'),
        ServiceUnavailableProblem: managementProblemSchema(503, 'service_unavailable', 'A 503: the key registry does not answer for now; Retry-After says when to try again.'),
      },
    },
  };
}

function description(points: number, windowS: number, ceiling: number): string {
  return `Companies and their service keys, for the platform's own services (the "Service keys" section of the platform
interface): list, issue, revoke and roll keys, and read the audit trail of who did what. Served on a listener of its own
(MANAGEMENT_HOST:MANAGEMENT_PORT), never on the public port.

Every operation but this document needs a platform token (\`Authorization: Bearer pt_...\`) and the \`X-Actor\` header, the
platform user on whose behalf it acts. Every change is kept as a key event with that actor and the token's id.
Each operation needs one scope of the token (its security requirement names it: ${[...new Set(Object.values(OPERATION_SCOPES))].join(', ')}),
and a token limited to named companies reaches only those; a call outside them is a 403 whose detail names the missing
scope or the company (creating a company needs a token for every company). GET /platform-token tells a token what it may do.
A key's secret appears in exactly two answers, the 201 of issue and of roll, and never again.

Errors are \`application/problem+json\` with a stable \`code\`, the \`requestId\` and, for a 400, every problem with a pointer.
Each token has a budget of ${points} requests per ${windowS} s for each company (the operations under /companies/{companyId})
and one of its own (POST /companies), all under a ceiling of ${ceiling} requests per ${windowS} s for the token, whatever
companies it names (an unknown company's 404 spends it too); without a valid token, the client address has one, and an
address that has spent it is refused before any token it sends is read. Told in \`RateLimit-Policy\` and \`RateLimit\`; a 429 carries \`Retry-After\`.
Every answer carries \`Cache-Control: no-store\`.`;
}
