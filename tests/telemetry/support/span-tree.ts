import type { ReceivedSpan } from './otlp-receiver.js';

/** The spans of one trace, and the chain of parents from a span up to the root. */
export function traceOf(spans: readonly ReceivedSpan[], traceId: string): ReceivedSpan[] {
  return spans.filter((span) => span.traceId === traceId);
}

/** Whether `ancestor` is `span`'s parent, or its parent's, and so on, among `spans`. */
export function descendsFrom(spans: readonly ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  let current: ReceivedSpan | undefined = span;
  for (let hops = 0; current !== undefined && hops < 64; hops++) {
    if (current.parentSpanId === ancestor.spanId) return true;
    current = byId.get(current.parentSpanId);
  }
  return false;
}

/** Every string value any exported span carried, and every raw body: where a personal value must not be. */
export function leaksOf(rawBodies: readonly string[], values: readonly string[]): string[] {
  const exported = rawBodies.join('\n');
  return values.filter((value) => exported.includes(value));
}

export function randomHex(bytes: number): string {
  return Array.from({ length: bytes }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('');
}
