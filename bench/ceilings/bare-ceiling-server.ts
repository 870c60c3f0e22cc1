import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { answerHelp } from '../../infrastructure/process-arguments.js';

/** One answer recorded from the service: status, media type and the body's bytes (base64). */
export interface RecordedAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * The upper ceiling of the bench: node:http answering with bytes recorded from the service, from memory.
 * Requests are matched by method and path (the query is ignored); a POST body is read to the end first.
 * Env: RECORDED (a JSON file of {"METHOD /path": RecordedAnswer}), PORT, HOST.
 */
answerHelp(
  process.argv.slice(2),
  'bench/ceilings/bare-ceiling-server.ts',
  `Usage: RECORDED=FILE [PORT=8091] [HOST=127.0.0.1] npx tsx bench/ceilings/bare-ceiling-server.ts

The bench's upper ceiling (npm run bench starts it): node:http answering each request with the bytes recorded
from the service for its method and path (RECORDED: a JSON file of {"METHOD /path": {status, contentType,
body (base64)}}), from memory. Settings are environment variables only.`,
);
const recorded = JSON.parse(readFileSync(process.env.RECORDED ?? '', 'utf8')) as Record<string, RecordedAnswer>;
const answers = new Map(Object.entries(recorded).map(([route, a]) => [route, { ...a, bytes: Buffer.from(a.body, 'base64') }]));
const notFound = Buffer.from('{"code":"not_found"}');

function send(response: ServerResponse, status: number, contentType: string, bytes: Buffer): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  response.end(bytes);
}

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  const answer = answers.get(`${request.method} ${path}`);
  request.resume();
  request.on('end', () => {
    if (path === '/healthz') return send(response, 200, 'application/json', Buffer.from('{"status":"ok"}'));
    if (answer === undefined) return send(response, 404, 'application/json', notFound);
    send(response, answer.status, answer.contentType, answer.bytes);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 8091), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
