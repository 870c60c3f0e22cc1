import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/** What a client observes of one response sent by `rawRequest`. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly body: any;
}

export interface RawRequest {
  readonly method: string;
  /** Path and query, sent as given (the caller encodes). */
  readonly path: string;
  /** A list value sends the header once per element, as separate header lines. */
  readonly headers?: Record<string, string | readonly string[]>;
  readonly body?: Buffer | string;
}

/**
 * One request over node:http, with none of fetch's normalising: repeated header lines, latin-1 bytes in
 * header values and bodies that are not valid UTF-8 reach the server as given.
 */
export function rawRequest(origin: string, options: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${origin}${options.path}`, { method: options.method, headers: options.headers as Record<string, string | string[]> }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parseJson(text) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** Bytes written to a plain socket, for what no HTTP client will send (control characters in a header). */
export function rawExchange(origin: string, bytes: Buffer): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
