import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * JSON lines on stdout. Keys are never logged: the X-API-Key header is redacted wherever a request
 * object reaches the logger, as a second line of defence.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'integration-api' },
    redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'key', 'apiKey'], censor: '[redacted]' },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
