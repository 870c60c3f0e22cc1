import type { Router } from '@koa/router';
import { readJsonBody, readOptionalJsonBody } from '../../http/json-body.js';
import { refuseUnknownParameters } from '../../http/list-query.js';
import { actorOf } from '../actor-header.js';
import { readKeyEventsQuery } from '../key-events-query.js';
import { readIssueKey, readRollKey } from '../management-bodies.js';
import type { ManagementDependencies } from '../management-dependencies.js';
import type { ManagementState } from '../management-state.js';
import { authorizeForCompany } from '../operation-scopes.js';
import { keyIdOf } from '../path-ids.js';
import { presentIssuedKey, presentKey, presentKeyEvent } from '../presenters/key-view.presenter.js';
import { keyPath } from '../resource-paths.js';

type KeyUseCases = 'listKeys' | 'getKey' | 'issueKey' | 'revokeKey' | 'rollKey' | 'listKeyEvents';

/**
 * A company's keys and their events. The token's scope and companies are checked first (operation-scopes.ts),
 * then X-Actor. A key of another company is not found (404, as an unknown one): the use cases are given the
 * path's company and refuse any key outside it.
 */
export function registerKeyRoutes(router: Router<ManagementState>, deps: Pick<ManagementDependencies, KeyUseCases>): void {
  router.get('/companies/:companyId/keys', async (ctx) => {
    const companyId = authorizeForCompany(ctx, 'listKeys');
    actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    const keys = await deps.listKeys.execute({ companyId });
    ctx.body = { items: keys.map(presentKey) };
  });

  router.post('/companies/:companyId/keys', async (ctx) => {
    const companyId = authorizeForCompany(ctx, 'issueKey');
    const actor = actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    const { name, scopes, expiresAt } = readIssueKey(await readJsonBody(ctx));
    const issued = await deps.issueKey.execute({ companyId, name, scopes, expiresAt, actor });
    ctx.status = 201;
    ctx.set('Location', keyPath(companyId, issued.id));
    ctx.body = presentIssuedKey(issued);
  });

  router.get('/companies/:companyId/keys/:keyId', async (ctx) => {
    const [companyId, keyId] = [authorizeForCompany(ctx, 'getKey'), keyIdOf(ctx)];
    actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    ctx.body = presentKey(await deps.getKey.execute({ companyId, keyId }));
  });

  // No body: whatever is sent is not read.
  router.post('/companies/:companyId/keys/:keyId/revoke', async (ctx) => {
    const [companyId, keyId] = [authorizeForCompany(ctx, 'revokeKey'), keyIdOf(ctx)];
    const actor = actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    ctx.body = presentKey(await deps.revokeKey.execute({ companyId, keyId, actor }));
  });

  router.post('/companies/:companyId/keys/:keyId/roll', async (ctx) => {
    const [companyId, keyId] = [authorizeForCompany(ctx, 'rollKey'), keyIdOf(ctx)];
    const actor = actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    // No body at all, however framed, means the defaults; a JSON null is a body, and refused.
    const body = await readOptionalJsonBody(ctx);
    const { oldKeyExpiresAt, expiresAt } = readRollKey(body === undefined ? {} : body);
    const { issued, rolled } = await deps.rollKey.execute({ companyId, keyId, oldKeyExpiresAt, expiresAt, actor });
    ctx.status = 201;
    // The new key is what the roll created; the old one stays where it was.
    ctx.set('Location', keyPath(companyId, issued.id));
    ctx.body = { issued: presentIssuedKey(issued), rolled: presentKey(rolled) };
  });

  router.get('/companies/:companyId/key-events', async (ctx) => {
    const companyId = authorizeForCompany(ctx, 'listKeyEvents');
    actorOf(ctx);
    const { limit, cursor } = readKeyEventsQuery(ctx.querystring);
    const page = await deps.listKeyEvents.execute({ companyId, limit, cursor });
    ctx.body = { items: page.items.map(presentKeyEvent), nextCursor: page.nextCursor };
  });
}
