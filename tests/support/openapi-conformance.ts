import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** Headers the service itself sets: one of them on a response that does not document it is a defect of the document. */
const API_HEADERS = ['x-request-id', 'ratelimit-policy', 'ratelimit', 'retry-after', 'x-sync-watermark', 'etag', 'idempotent-replayed', 'idempotency-conflict', 'cache-control', 'www-authenticate'];

type Json = any;

/**
 * Checks live responses against the OpenAPI document the service publishes: the operation and the status
 * must be documented, every required header present, every header and body valid against its schema.
 * Bodies are checked closed-world: an object may not carry a property the document does not list (the
 * published schemas stay open, as clients must ignore fields added within v1; the service must not send
 * fields the document does not name). `wrap(fetch)` gives a fetch that checks every response it sees.
 */
export class OpenApiConformance {
  readonly violations: string[] = [];
  /** `operationId status` of every response seen. */
  readonly seen = new Set<string>();
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly basePath: string;

  constructor(private readonly document: Json) {
    // A relative server URL (the management document's /internal/v1) is relative to wherever the document is served.
    this.basePath = new URL(document.servers[0].url, 'http://document.test').pathname.replace(/\/$/, '');
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormatsModule.default(this.ajv);
    this.ajv.addSchema({ $id: 'https://openapi.test/document.json', $defs: closedWorld(absoluteRefs(document.components.schemas)) });
  }

  /** Every `operationId status` the document describes. */
  documented(): string[] {
    return this.operations().flatMap(({ operation }) => Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`));
  }

  wrap(fetchImpl: typeof fetch = fetch): typeof fetch {
    return async (input, init) => {
      const response = await fetchImpl(input, init);
      const request = new Request(input, init);
      const text = await response.clone().text();
      this.check(request.method, request.url, response.status, response.headers, text);
      return response;
    };
  }

  check(method: string, url: string, status: number, headers: Headers, text: string): void {
    const label = `${method} ${new URL(url).pathname} ${status}`;
    const fail = (problem: string): void => void this.violations.push(`${label}: ${problem}`);
    const found = this.operations().find((o) => o.method === method.toLowerCase() && pathMatches(`${this.basePath}${o.path}`, new URL(url).pathname));
    if (found === undefined) return fail('no such operation in the document');
    const response = this.resolve(found.operation.responses[String(status)]);
    if (response === undefined) return fail(`status ${status} is not documented for ${found.operation.operationId}`);
    this.seen.add(`${found.operation.operationId} ${status}`);

    const documentedHeaders = new Map<string, Json>(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), this.resolve(h)]));
    for (const [name, header] of documentedHeaders) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required === true) fail(`required header ${name} is missing`);
        continue;
      }
      const parsed = header.schema?.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
      for (const error of this.validate(header.schema, parsed)) fail(`header ${name}: ${error}`);
    }
    for (const name of API_HEADERS) {
      if (headers.get(name) !== null && !documentedHeaders.has(name)) fail(`header ${name} is sent but not documented`);
    }

    // A response documented without content (a 304) has no body.
    if (response.content === undefined) return text === '' ? undefined : fail('a body is sent where the document names none');
    const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
    const content = response.content?.[mediaType];
    if (content === undefined) return fail(`content type "${mediaType}" is not documented (${Object.keys(response.content ?? {}).join(', ')})`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail('the body is not JSON');
    }
    // One violation per body, naming every error (a schema with alternatives, anyOf, reports each branch's).
    const errors = this.validate(content.schema, body);
    if (errors.length > 0) fail(`body: ${errors.join('; ')}`);
  }

  private validate(schema: Json, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(closedWorld(absoluteRefs(schema)));
      this.validators.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  private operations(): { path: string; method: string; operation: Json }[] {
    return Object.entries(this.document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
  }

  /** Follows a local `$ref` of the document (responses, headers). */
  private resolve(node: Json): Json {
    if (node?.$ref === undefined) return node;
    const target = (node.$ref as string).replace(/^#\//, '').split('/').reduce((at: Json, key) => at?.[key], this.document);
    return this.resolve(target);
  }
}

/** Whether a path of the document, with `{parameter}` templates (one segment each), names this request path. */
function pathMatches(template: string, path: string): boolean {
  const pattern = template.split(/\{[^}/]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

function absoluteRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema ?? {}).replaceAll('"#/components/schemas/', '"https://openapi.test/document.json#/$defs/'));
}

/** A copy in which every object schema that lists its properties admits no others. */
function closedWorld(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closedWorld);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Json = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'properties' ? mapValues(value as Record<string, Json>, closedWorld) : closedWorld(value)]));
  if (copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

function mapValues(object: Record<string, Json>, map: (value: Json) => Json): Record<string, Json> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}
