import { expect } from 'chai';
import { tracingSettings } from '../../../infrastructure/telemetry/tracing-settings.js';

describe('whether tracing is on, from the OTEL_* variables alone', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

  it('is off without an endpoint, with OTEL_SDK_DISABLED=true, or with OTEL_TRACES_EXPORTER=none', () => {
    expect(tracingSettings({})).to.deep.equal({ on: false });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).to.deep.equal({ on: false });
    expect(tracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).to.deep.equal({ on: false });
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).to.deep.equal({ on: false });
  });

  it('is on with an endpoint (or a traces endpoint), over http/protobuf unless http/json is asked', () => {
    expect(tracingSettings(endpoint)).to.deep.equal({ on: true, protocol: 'http/protobuf' });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).to.deep.equal({ on: true, protocol: 'http/json' });
    expect(tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).to.deep.equal({ on: true, protocol: 'http/protobuf' });
  });

  it('refuses what it cannot export, naming the variable: grpc, another exporter', () => {
    expect(() => tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).to.throw('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported');
    expect(() => tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).to.throw('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc');
    expect(() => tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).to.throw('OTEL_TRACES_EXPORTER=zipkin is not supported');
  });
});
