/**
 * Whether this process traces, from the standard OpenTelemetry variables alone (no setting of our own): on
 * when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The rest (sampler, resource, batching, headers,
 * timeout) is read by the SDK itself from the same variables. Only OTLP over HTTP is exported.
 */
export type TracingSettings =
  | { readonly on: false }
  | { readonly on: true; readonly protocol: OtlpHttpProtocol };

export type OtlpHttpProtocol = 'http/protobuf' | 'http/json';

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];

export class TracingSettingsError extends Error {
  override readonly name = 'TracingSettingsError';
}

export function tracingSettings(env: NodeJS.ProcessEnv = process.env): TracingSettings {
  const endpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (endpoint === undefined) return { on: false };
  if (nonEmpty(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return { on: false };
  const exporter = nonEmpty(env.OTEL_TRACES_EXPORTER)?.toLowerCase();
  if (exporter === 'none') return { on: false };
  if (exporter !== undefined && exporter !== 'otlp') {
    throw new TracingSettingsError(`OTEL_TRACES_EXPORTER=${exporter} is not supported: only otlp (the default) or none.`);
  }
  const variable = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  // The specification's default protocol.
  const protocol = nonEmpty(env[variable]) ?? 'http/protobuf';
  if (!PROTOCOLS.includes(protocol)) {
    throw new TracingSettingsError(`${variable}=${protocol} is not supported: traces are exported over HTTP, as http/protobuf (the default) or http/json.`);
  }
  return { on: true, protocol: protocol as OtlpHttpProtocol };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
