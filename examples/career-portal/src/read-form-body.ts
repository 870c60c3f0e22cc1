import type { IncomingMessage } from 'node:http';

export class FormTooLargeError extends Error {
  override readonly name = 'FormTooLargeError';
}

/**
 * An application/x-www-form-urlencoded body, at most `limitBytes` long. A cover letter of 20 000 Cyrillic
 * characters is about 120 KB once percent-encoded, so the limit is set well above that and no further.
 */
export async function readFormBody(request: IncomingMessage, limitBytes: number): Promise<URLSearchParams> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limitBytes) throw new FormTooLargeError(`The form is ${declared} bytes; at most ${limitBytes} are read.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw new FormTooLargeError(`The form is over ${limitBytes} bytes.`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
