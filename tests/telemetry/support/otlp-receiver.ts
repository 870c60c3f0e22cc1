import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { firstMessage, messages, text, varintOf, wireFields, type WireField } from './protobuf-wire.js';

/** A span as the receiver read it, whichever the protocol: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  readonly statusMessage: string;
  /** When the span ended, in nanoseconds since the epoch. */
  readonly endTimeUnixNano: bigint;
  readonly resource: Readonly<Record<string, unknown>>;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:port, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Every body received, decompressed, as UTF-8 text (protobuf strings are there verbatim too). */
  readonly rawBodies: string[];
  /** The content types the exporter sent. */
  readonly contentTypes: Set<string>;
  /** Waits until `condition` holds of the spans received so far. */
  until(condition: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP receiver of traces on a free port: POST /v1/traces, http/json or http/protobuf (gzip or not),
 * decoded into spans. `failWith` answers every export with that status instead (a collector in trouble).
 */
export async function startOtlpReceiver(options: { failWith?: number } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const rawBodies: string[] = [];
  const contentTypes = new Set<string>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (options.failWith !== undefined) {
        response.writeHead(options.failWith).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const type = (request.headers['content-type'] ?? '').split(';')[0] ?? '';
      contentTypes.add(type);
      rawBodies.push(body.toString('utf8'));
      if (request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      if (type === 'application/json') {
        spans.push(...spansOfJson(JSON.parse(body.toString('utf8')) as JsonRequest));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        spans.push(...spansOfProtobuf(body));
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    rawBodies,
    contentTypes,
    async until(condition, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition(spans)) {
        if (Date.now() > deadline) throw new Error(`the receiver did not get the spans expected within ${timeoutMs} ms; it got: ${spans.map((s) => s.name).join(', ')}`);
        await new Promise((wake) => setTimeout(wake, 50));
      }
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

// --- http/json: the OTLP JSON mapping (ids as hex strings, 64-bit integers as strings or numbers).

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
type JsonKeyValue = { key: string; value?: JsonAnyValue };
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind?: number;
        attributes?: JsonKeyValue[];
        links?: { traceId: string; spanId: string }[];
        status?: { message?: string };
        endTimeUnixNano?: string | number;
      }[];
    }[];
  }[];
}

function spansOfJson(request: JsonRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind ?? 0,
        attributes: jsonAttributes(span.attributes),
        links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
        statusMessage: span.status?.message ?? '',
        endTimeUnixNano: BigInt(span.endTimeUnixNano ?? 0),
        resource,
      })),
    );
  });
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, jsonValue(value)]));
}

function jsonValue(value: JsonAnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}

// --- http/protobuf: opentelemetry/proto/collector/trace/v1 ExportTraceServiceRequest and the messages under it.

function spansOfProtobuf(body: Buffer): ReceivedSpan[] {
  return messages(wireFields(body), 1).flatMap((resourceSpansBytes) => {
    const resourceSpans = wireFields(resourceSpansBytes);
    const resourceBytes = firstMessage(resourceSpans, 1);
    const resource = resourceBytes === undefined ? {} : protobufAttributes(wireFields(resourceBytes), 1);
    return messages(resourceSpans, 2).flatMap((scopeSpansBytes) =>
      messages(wireFields(scopeSpansBytes), 2).map((spanBytes) => {
        const span = wireFields(spanBytes);
        const statusBytes = firstMessage(span, 15);
        return {
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          parentSpanId: hex(span, 4),
          name: text(span, 5) ?? '',
          kind: Number(varintOf(span, 6) ?? 0n),
          attributes: protobufAttributes(span, 9),
          links: messages(span, 13).map((linkBytes) => {
            const link = wireFields(linkBytes);
            return { traceId: hex(link, 1), spanId: hex(link, 2) };
          }),
          statusMessage: statusBytes === undefined ? '' : (text(wireFields(statusBytes), 2) ?? ''),
          endTimeUnixNano: span.find((field) => field.number === 8)?.fixed64?.readBigUInt64LE(0) ?? 0n,
          resource,
        };
      }),
    );
  });
}

function hex(fields: readonly WireField[], number: number): string {
  return firstMessage(fields, number)?.toString('hex') ?? '';
}

function protobufAttributes(fields: readonly WireField[], number: number): Record<string, unknown> {
  return Object.fromEntries(
    messages(fields, number).map((keyValueBytes) => {
      const keyValue = wireFields(keyValueBytes);
      const valueBytes = firstMessage(keyValue, 2);
      return [text(keyValue, 1) ?? '', valueBytes === undefined ? undefined : protobufValue(wireFields(valueBytes))];
    }),
  );
}

/** AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array. */
function protobufValue(value: readonly WireField[]): unknown {
  for (const field of value) {
    if (field.number === 1) return field.bytes?.toString('utf8');
    if (field.number === 2) return field.varint === 1n;
    if (field.number === 3) return Number(BigInt.asIntN(64, field.varint ?? 0n));
    if (field.number === 4) return field.fixed64?.readDoubleLE(0);
    if (field.number === 5) return messages(wireFields(field.bytes ?? Buffer.alloc(0)), 1).map((item) => protobufValue(wireFields(item)));
  }
  return undefined;
}
