import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';

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
