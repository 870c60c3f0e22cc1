#!/usr/bin/env node
// `npm run feed`: the platform feed's consumer, compiled, run by plain node in this very process (the npm
// script execs it), so that a signal sent to `npm run feed`, to this process or to its group reaches it.
import { ensureBuilt } from './build.js';

ensureBuilt();
process.setSourceMapsEnabled(true);
// Tracing (OTEL_* variables; off without an endpoint) starts before the service's modules load, so that the
// instrumentations see them (docs/adr/0028-opentelemetry-tracing.md).
const { startTracing } = await import('../dist/infrastructure/telemetry/start-tracing.js');
await startTracing('integration-feed');
await import('../dist/infrastructure/feed-main.js');
