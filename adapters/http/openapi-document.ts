import type { HttpSettings } from './http-dependencies.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import { applicationRequestSchema } from './schemas/application-request.schema.js';
import { candidateSchema } from './schemas/candidate.schema.js';
import { applicationCreatedSchema, applicationDuplicateSchema, pageSchema, problemSchema } from './schemas/common.schema.js';
import { cursorParameter, limitParameter, sinceParameter, statusParameter, vacancyIdParameter } from './schemas/query-parameters.schema.js';
import { ref } from './schemas/schema-helpers.js';
import { vacancySchema } from './schemas/vacancy.schema.js';

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const json = (schemaName: string) => ({ 'application/json': { schema: ref(schemaName) } });
const problem = (description: string) => ({ description, headers: { 'X-Request-Id': header('RequestId') }, content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem') } } });
const limited = { 'X-Request-Id': header('RequestId'), RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') };

const commonErrors = {
  '400': problem('The request failed validation (validation_failed; invalid_cursor for a bad cursor). errors lists every problem.'),
  '401': problem('The key is missing, malformed, unknown, revoked or expired; the body is the same in every case.'),
  '403': problem('The key lacks the scope the operation needs; detail names it.'),
  '429': { ...problem('The request budget is spent.'), headers: { ...limited, 'Retry-After': header('RetryAfter') } },
};

const listResponses = (pageName: string, extraHeaders: Record<string, object> = {}) => ({
  '200': { description: 'One page.', headers: { ...limited, 'X-Sync-Watermark': header('SyncWatermark'), ...extraHeaders }, content: json(pageName) },
  ...commonErrors,
});

/** The OpenAPI 3.1 document, built from the very schemas that validate requests. */
export function buildOpenApiDocument(settings: Pick<HttpSettings, 'publicBaseUrl' | 'region'>) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hiring platform integration API',
      version: '1.0.0',
      description:
        "A company's vacancies and candidates for outside systems, and inbound applications. Every request is limited to the company " +
        'of its service key. Lists are paged by cursor, in (modification time, id) order; within v1 fields are only added. ' +
        'Unknown query parameters and body fields are ignored; a query parameter given twice is a 400. Errors are ' +
        'application/problem+json with a stable code.',
    },
    servers: [{ url: settings.publicBaseUrl, description: `Regional deployment ${settings.region}` }],
    security: [{ apiKey: [] }],
    paths: {
      '/integration/v1/vacancies': {
        get: {
          operationId: 'listVacancies',
          summary: 'Vacancies of the calling company. Scope vacancies:read.',
          parameters: [sinceParameter, limitParameter, cursorParameter, statusParameter],
          responses: listResponses('VacancyPage'),
        },
      },
      '/integration/v1/candidates': {
        get: {
          operationId: 'listCandidates',
          summary: 'Candidates of the calling company, each with its resume. Scope candidates:read.',
          parameters: [sinceParameter, limitParameter, cursorParameter, vacancyIdParameter],
          responses: listResponses('CandidatePage', { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } }),
        },
      },
      '/integration/v1/applications': {
        post: {
          operationId: 'submitApplication',
          summary: 'Creates a candidate card from an application, once per externalId. Scope applications:write.',
          requestBody: { required: true, content: json('ApplicationRequest') },
          responses: {
            '201': { description: 'The card was created.', headers: limited, content: json('ApplicationCreated') },
            '200': {
              description: 'An application with this externalId was accepted before; nothing was created.',
              headers: {
                ...limited,
                'Idempotent-Replayed': { schema: { type: 'string', const: 'true' } },
                'Idempotency-Conflict': { description: 'body-differs when this body differs from the first one.', schema: { type: 'string', const: 'body-differs' } },
              },
              content: json('ApplicationDuplicate'),
            },
            ...commonErrors,
            '404': problem('The vacancy does not exist or belongs to another company (one response for both).'),
            '413': problem('The body is larger than 5 MiB.'),
            '415': problem('The body is not sent as Content-Type: application/json.'),
          },
        },
      },
      '/integration/v1/openapi.json': {
        get: { operationId: 'openApiDocument', summary: 'This document. Needs no key.', security: [], responses: { '200': { description: 'OpenAPI 3.1.' } } },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The company service key. Never in the query string.' } },
      headers: {
        RequestId: { description: "The client's X-Request-Id (1..128 visible ASCII) or a generated one.", schema: { type: 'string' } },
        RateLimit: { description: 'IETF draft: "default";r=<remaining>;t=<seconds to reset>', schema: { type: 'string' } },
        RateLimitPolicy: { description: 'IETF draft: "default";q=<requests>;w=<window seconds>', schema: { type: 'string' } },
        RetryAfter: { description: 'Whole seconds, at least 1.', schema: { type: 'integer', minimum: 1 } },
        SyncWatermark: { description: 'A safe since for the next sync run.', schema: { type: 'string', format: 'date-time' } },
      },
      schemas: {
        Vacancy: vacancySchema,
        Candidate: candidateSchema,
        VacancyPage: pageSchema('Vacancy'),
        CandidatePage: pageSchema('Candidate'),
        ApplicationRequest: applicationRequestSchema,
        ApplicationCreated: applicationCreatedSchema,
        ApplicationDuplicate: applicationDuplicateSchema,
        Problem: problemSchema,
      },
    },
  };
}
