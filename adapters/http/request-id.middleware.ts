import { randomUUID } from 'node:crypto';
import type { HttpMiddleware } from './http-state.js';

/** 1..128 visible ASCII characters (DESIGN 3); anything else is replaced, never echoed. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export const requestIdMiddleware: HttpMiddleware = async (ctx, next) => {
  const sent = ctx.get('X-Request-Id');
  ctx.state.requestId = CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
};
