import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type { HttpContext } from './http-state.js';
import { HttpProblem, validationProblem } from './problem.js';

const tooLarge = (limit: number) => new HttpProblem(413, 'payload_too_large', 'Payload too large', `The request body is larger than ${limit} bytes.`);

/**
 * The body's bytes after Content-Encoding (gzip, deflate, br; another is 415), at most `limit` of them
 * (413). A corrupt compressed stream, or a body cut short, is a 400 at pointer "".
 */
export async function readBodyBytes(ctx: HttpContext, limit: number): Promise<Buffer> {
  const encoding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
  const declared = Number(ctx.get('Content-Length') || Number.NaN);
  // Refused before reading a byte; Node discards the unread body once the answer is sent.
  if (encoding === 'identity' && declared > limit) throw tooLarge(limit);
  const decoder = decoderFor(encoding);
  try {
    return await collect(decoder === null ? ctx.req : ctx.req.pipe(decoder), limit);
  } catch (error) {
    // The rest of the body is not worth reading: let it drain, and close the connection after the answer.
    if (decoder !== null) {
      ctx.req.unpipe(decoder);
      decoder.destroy();
    }
    ctx.req.resume();
    ctx.set('Connection', 'close');
    if (error instanceof HttpProblem) throw error;
    // A corrupt gzip, deflate or br stream, or a client that went away mid-body.
    if (decoder === null) throw validationProblem('The request body was not received whole.', [{ pointer: '', message: 'is incomplete' }]);
    throw validationProblem(`The request body is not valid ${encoding} data.`, [{ pointer: '', message: `must be valid ${encoding}` }]);
  }
}

/** Reads a stream to its end without destroying it (destroying the request would drop the connection before the answer). */
function collect(source: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      source.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(() => reject(tooLarge(limit)));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size)));
    const onError = (error: unknown) => settle(() => reject(error));
    const onClose = () => settle(() => reject(new Error('closed before the end of the body')));
    source.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

function decoderFor(encoding: string): Transform | null {
  switch (encoding) {
    case 'identity':
      return null;
    case 'gzip':
    case 'deflate':
      return createUnzip();
    case 'br':
      return createBrotliDecompress();
    default:
      throw new HttpProblem(415, 'unsupported_media_type', 'Unsupported media type', 'The request body has a Content-Encoding that is not supported: use gzip, deflate or br, or none.');
  }
}
