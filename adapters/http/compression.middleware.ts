import { constants } from 'node:zlib';
import compress from 'koa-compress';
import type { HttpMiddleware } from './http-state.js';

/** Smaller answers (probes, most problem documents, POST results) cost more to compress than they save. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/**
 * Brotli quality 4 and gzip level 6 (zlib's default): measured on our pages by bench/serialization-bench.ts,
 * quality 4 compresses a 100-candidate page about as well as gzip 6 in less time, and higher qualities
 * cost several times the CPU for a few percent of bytes (figures in bench/README.md).
 */
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 6;
/**
 * A 1 MB window (brotli's default is 4 MB): our largest pages are about that size and repeat themselves
 * within a few KB, so nothing is lost in size, while each concurrent stream holds less than half the memory.
 */
export const BROTLI_WINDOW_BITS = 20;

/**
 * gzip and brotli when the client asks for them (Accept-Encoding), identity otherwise; deflate is left
 * out (its framing is ambiguous across clients) and so is zstd (not in Node 20). Placed outside the error
 * middleware, so that a large problem document is compressed like any other body.
 */
export function compressionMiddleware(): HttpMiddleware {
  return compress({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS } },
    gzip: { level: GZIP_LEVEL },
    deflate: false,
  }) as HttpMiddleware;
}
