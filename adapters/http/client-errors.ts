import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem.js';

interface ParserRefusal {
  readonly status: number;
  readonly reason: string;
  readonly code: 'headers_too_large' | 'request_timeout' | 'malformed_request';
  readonly title: string;
  readonly detail: string;
}

/** The statuses Node itself would send (its default clientError answer), with a problem document each. */
function refusalOf(errorCode: string | undefined): ParserRefusal {
  if (errorCode === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'headers_too_large',
      title: 'Request headers too large',
      detail: 'The request headers exceed 16 KB in all; send shorter ones.',
    };
  }
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', code: 'request_timeout', title: 'Request timeout', detail: 'The request was not received in time.' };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    code: 'malformed_request',
    title: 'Malformed request',
    detail: 'The request is not valid HTTP/1.1 (for example a control character in a header, or a header name with a space).',
  };
}

/**
 * Node's HTTP parser refuses some requests before the Koa app sees them: headers too large, a control
 * character in a header, a malformed request line, a request that never completes. Node's own answer is
 * a bare status line; this answers them with a problem document like every other error of the API, with
 * a fresh request id, and closes the connection (the parser cannot continue on it).
 */
export function answerClientErrorsWithProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error.code);
    const requestId = randomUUID();
    const body = JSON.stringify({
      type: problemType(refusal.code),
      title: refusal.title,
      status: refusal.status,
      code: refusal.code,
      detail: refusal.detail,
      requestId,
    });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Cache-Control: no-store\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
