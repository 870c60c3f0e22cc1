import type { Context } from 'koa';
import type { CallerContext, KeyView } from './management-client.js';
import { layout, type Page, type View } from './views/layout.js';
import type { ServiceKeysDependencies } from './service-keys-app.js';

/** What each request knows once the middleware has run: the caller, and the view in the chosen language. */
export interface PageState {
  readonly caller: CallerContext;
  readonly view: View;
}

export function send(ctx: Context, status: number, page: Page): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout(ctx.state.view as View, page);
}

export const stateOf = (ctx: Context) => ctx.state as PageState;

/** What the POST routes (key-action-routes.ts) get from the app besides its dependencies. */
export type ActionDependencies = ServiceKeysDependencies & {
  readonly now: () => Date;
  findKey(ctx: Context, id: string): Promise<KeyView | undefined>;
  failed(ctx: Context, operation: string, error: unknown): void;
};
