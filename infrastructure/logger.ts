import { once } from 'node:events';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';
import { activeTracer } from './telemetry/tracing.js';

/** The stdout stream of each logger this module made, to be ended before the process exits. */
const stdoutStreams = new WeakMap<Logger, ReturnType<typeof pino.destination>>();
/** How long ending the log may take: a log reader that stopped reading must not hold the exit. */
const END_TIMEOUT_MS = 1_000;

/**
 * JSON lines on stdout. Keys and platform tokens are never logged: the X-API-Key and Authorization headers
 * are redacted wherever a request object reaches the logger, as a second line of defence.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'integration-api' },
    redact: {
      paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'req.headers.authorization', 'headers.authorization', 'key', 'apiKey', 'token'],
      censor: '[redacted]',
    },
    // Tracing on (OTEL_*), a line written while a span is active names it: trace_id and span_id.
    ...(activeTracer() === undefined ? {} : { mixin: spanFields }),
  };
  if (destination !== undefined) return pino(options, destination);
  const stdout = pino.destination({ dest: 1, sync: false });
  const logger = pino(options, stdout);
  stdoutStreams.set(logger, stdout);
  return logger;
}

function spanFields(): Record<string, string> {
  const context = trace.getActiveSpan()?.spanContext();
  return context !== undefined && isSpanContextValid(context) ? { trace_id: context.traceId, span_id: context.spanId } : {};
}

/**
 * Writes out what the logger still holds and closes stdout, before process.exit(). Without it, the exit
 * hook of the log stream writes synchronously and, when stdout is a pipe whose reader is gone (`npm start |
 * tee log` stopped by Ctrl-C, which reaches tee too), retries the refused write for ever: the service would
 * never exit. Ended here, on a running event loop, a broken pipe is seen and the stream stops writing.
 */
export async function endLogs(logger: Logger): Promise<void> {
  const stdout = stdoutStreams.get(logger);
  if (stdout === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const closed = once(stdout, 'close').then(() => undefined, () => undefined);
  const error = once(stdout, 'error').then(() => undefined, () => undefined);
  stdout.end();
  await Promise.race([closed, error, new Promise<void>((done) => (timer = setTimeout(done, END_TIMEOUT_MS)))]);
  clearTimeout(timer);
}
