import type { HttpSettings } from './http-dependencies.js';
import { JSON_BODY_LIMIT_BYTES } from '../json/json-text.js';
import { documentDescription } from './openapi/openapi-description.js';
import {
  candidatePageExamples,
  fullApplicationExample,
  minimalApplicationExample,
  vacancyPageExamples,
} from './openapi/openapi-examples.js';
import { headerComponents, headerRef, ifNoneMatchParameter, limitedHeaders, requestIdParameter } from './openapi/openapi-headers.js';
import { responses } from './openapi/openapi-responses.js';
import { applicationRequestSchema } from '../json/application-request.schema.js';
import { candidateSchema, personSchema, referralSchema, resumeSchema } from './schemas/candidate.schema.js';
import { applicationCreatedSchema, applicationDuplicateSchema, listedIdSchema, pageSchema } from './schemas/common.schema.js';
import { problemItemSchema, problemSchema } from './schemas/problem.schema.js';
import { CANDIDATE_LIST_PARAMETERS, VACANCY_LIST_PARAMETERS } from './schemas/query-parameters.schema.js';
import { ref } from './schemas/schema-helpers.js';
import { vacancySchema } from './schemas/vacancy.schema.js';

type DocumentSettings = Pick<HttpSettings, 'publicBaseUrl' | 'region' | 'rateLimitPoints' | 'rateLimitWindowS'>;

const REQUEST_ID = { $ref: '#/components/parameters/RequestId' };
const IF_NONE_MATCH = { $ref: '#/components/parameters/IfNoneMatch' };
const notModified = {
  description:
    'The page is byte-identical to the one whose ETag was sent in If-None-Match: no body. X-Sync-Watermark is of this read, so it ' +
    'is the since of the next run when this was the last page of a pass. Spends no point of the request budget.',
  headers: { ...limitedHeaders, 'X-Sync-Watermark': headerRef('SyncWatermark'), ETag: headerRef('ETag') },
};
const secured = (scope: string) => [{ apiKey: [scope] }];
const UNKNOWN_QUERY_PARAMETERS =
  'A query parameter not listed here (a misspelt name, a different case, a name with []) is a 400 validation_failed pointing at /<name> and naming the parameters this operation takes.';

/**
 * The OpenAPI 3.1 document, built from the very schemas that validate requests, with every status and
 * header the service sends. The committed client types are generated from it (npm run generate:client).
 */
export function buildOpenApiDocument(settings: DocumentSettings) {
  const { rateLimitPoints: points, rateLimitWindowS: windowS } = settings;
  const rateLimited = responses.rateLimited(points, windowS);
  const unavailable = responses.serviceUnavailable();
  const internalError = responses.internalError();
  return {
    openapi: '3.1.0',
    info: { title: 'Hiring platform integration API', version: '1.0.0', description: documentDescription(points, windowS) },
    servers: [{ url: settings.publicBaseUrl, description: `Regional deployment ${settings.region}` }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Vacancies', description: "The company's vacancies, for a career portal or a sync." },
      { name: 'Candidates', description: 'Candidates with their parsed resumes: personal data, with a scope of its own.' },
      { name: 'Applications', description: 'Applications and referrals from outside, idempotent on externalId.' },
      { name: 'Document', description: 'This description of the API.' },
    ],
    paths: {
      '/integration/v1/vacancies': {
        get: {
          operationId: 'listVacancies',
          tags: ['Vacancies'],
          summary: 'List vacancies',
          description: `Vacancies of the calling company, one page at a time, in (updatedAt, id) order. Scope vacancies:read. ${UNKNOWN_QUERY_PARAMETERS}`,
          security: secured('vacancies:read'),
          parameters: [...VACANCY_LIST_PARAMETERS, IF_NONE_MATCH, REQUEST_ID],
          responses: {
            '200': {
              description: 'One page of vacancies.',
              headers: { ...limitedHeaders, 'X-Sync-Watermark': headerRef('SyncWatermark'), ETag: headerRef('ETag') },
              content: { 'application/json': { schema: { anyOf: [ref('VacancyPage'), ref('IdPage')] }, examples: vacancyPageExamples } },
            },
            '304': notModified,
            '400': responses.badQuery(),
            '401': responses.unauthorized(),
            '403': responses.forbidden('vacancies:read'),
            '429': rateLimited,
            '500': internalError,
            '503': unavailable,
          },
        },
      },
      '/integration/v1/candidates': {
        get: {
          operationId: 'listCandidates',
          tags: ['Candidates'],
          summary: 'List candidates',
          description:
            'Candidates of the calling company, each with its resume and referral, one page at a time, in (updatedAt, id) order. ' +
            `Technical cards made by a transfer are never listed. Scope candidates:read. ${UNKNOWN_QUERY_PARAMETERS}`,
          security: secured('candidates:read'),
          parameters: [...CANDIDATE_LIST_PARAMETERS, IF_NONE_MATCH, REQUEST_ID],
          responses: {
            '200': {
              description: 'One page of candidates.',
              headers: { ...limitedHeaders, 'X-Sync-Watermark': headerRef('SyncWatermark'), ETag: headerRef('ETag') },
              content: { 'application/json': { schema: { anyOf: [ref('CandidatePage'), ref('IdPage')] }, examples: candidatePageExamples } },
            },
            '304': notModified,
            '400': responses.badQuery(),
            '401': responses.unauthorized(),
            '403': responses.forbidden('candidates:read'),
            '429': rateLimited,
            '500': internalError,
            '503': unavailable,
          },
        },
      },
      '/integration/v1/applications': {
        post: {
          operationId: 'submitApplication',
          tags: ['Applications'],
          summary: 'Send an application',
          description:
            'Creates a candidate card in the first column of the vacancy board, once per externalId and company. The vacancy may have ' +
            'any status. Sending the same externalId again creates nothing and answers 200 with the earlier id, so a retry after a ' +
            'timeout or a 429 is always safe. A filled referral block makes the application a referral. Scope applications:write. ' +
            'It takes no query parameters: one sent is a 400 validation_failed pointing at /<name>, before the body is read.',
          security: secured('applications:write'),
          parameters: [REQUEST_ID],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('ApplicationRequest'),
                examples: {
                  full: { summary: 'Every field, with a referral', value: fullApplicationExample },
                  minimal: { summary: 'Only what is required', value: minimalApplicationExample },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'The card was created.',
              headers: limitedHeaders,
              content: { 'application/json': { schema: ref('ApplicationCreated'), example: { id: '019a4a03-55e2-7b19-9c0d-1e7f2a8b3c64', status: 'created' } } },
            },
            '200': {
              description: 'An application with this externalId was accepted before; nothing was created or changed.',
              headers: { ...limitedHeaders, 'Idempotent-Replayed': headerRef('IdempotentReplayed'), 'Idempotency-Conflict': headerRef('IdempotencyConflict') },
              content: { 'application/json': { schema: ref('ApplicationDuplicate'), example: { id: '019a4a03-55e2-7b19-9c0d-1e7f2a8b3c64', status: 'duplicate' } } },
            },
            '400': responses.badBody(),
            '401': responses.unauthorized(),
            '403': responses.forbidden('applications:write'),
            '404': responses.vacancyNotFound(),
            '413': responses.payloadTooLarge(JSON_BODY_LIMIT_BYTES),
            '415': responses.unsupportedMediaType(),
            '429': rateLimited,
            '500': internalError,
            '503': unavailable,
          },
        },
      },
      '/integration/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['Document'],
          summary: 'This document',
          description: 'Needs no key; counts against the rate limit of the client address.',
          security: [],
          parameters: [REQUEST_ID],
          responses: {
            '200': { description: 'The OpenAPI 3.1 document.', headers: limitedHeaders, content: { 'application/json': { schema: { type: 'object' } } } },
            '429': rateLimited,
            '500': internalError,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'The company service key, ik_<keyId>_<secret>, issued in the platform under Service keys and shown once. Its scopes: ' +
            'vacancies:read for GET /vacancies; candidates:read for GET /candidates (personal data); applications:write for ' +
            'POST /applications. A missing, unknown, revoked or expired key is a 401, with WWW-Authenticate: ApiKey header="X-API-Key"; ' +
            'a key without the scope an operation needs, a 403.',
        },
      },
      parameters: { RequestId: requestIdParameter, IfNoneMatch: ifNoneMatchParameter },
      headers: headerComponents,
      schemas: {
        Vacancy: vacancySchema,
        Candidate: candidateSchema,
        Person: personSchema,
        Resume: resumeSchema,
        Referral: referralSchema,
        VacancyPage: pageSchema('Vacancy', 'Vacancies of this page; empty on an empty last page.'),
        CandidatePage: pageSchema('Candidate', 'Candidates of this page; empty on an empty last page.'),
        ListedId: listedIdSchema,
        IdPage: pageSchema('ListedId', 'With fields=id: the id and updatedAt of each record of this page; empty on an empty last page.'),
        ApplicationRequest: applicationRequestSchema,
        ApplicationCreated: applicationCreatedSchema,
        ApplicationDuplicate: applicationDuplicateSchema,
        ProblemItem: problemItemSchema,
        ValidationProblem: problemSchema(400, 'validation_failed', 'A 400: the request failed validation; errors lists every problem.'),
        InvalidCursorProblem: problemSchema(400, 'invalid_cursor', 'A 400: the cursor is malformed or belongs to another query.'),
        UnauthorizedProblem: problemSchema(401, 'unauthorized', 'A 401: no valid key.'),
        ForbiddenProblem: problemSchema(403, 'forbidden', 'A 403: the key lacks the scope; detail names it.'),
        NotFoundProblem: problemSchema(404, 'not_found', 'A 404: no such vacancy for this company.'),
        PayloadTooLargeProblem: problemSchema(413, 'payload_too_large', 'A 413: the body is too large.'),
        UnsupportedMediaTypeProblem: problemSchema(415, 'unsupported_media_type', 'A 415: the body is not JSON.'),
        RateLimitedProblem: problemSchema(429, 'rate_limited', 'A 429: the request budget is spent.'),
        InternalErrorProblem: problemSchema(500, 'internal_error', 'A 500: an unexpected error.'),
        ServiceUnavailableProblem: problemSchema(503, 'service_unavailable', 'A 503: the database does not answer for now; Retry-After says when to try again.'),
      },
    },
  };
}
