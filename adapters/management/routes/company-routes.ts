import type { Router } from '@koa/router';
import { readJsonBody } from '../../http/json-body.js';
import { refuseUnknownParameters } from '../../http/list-query.js';
import { actorOf } from '../actor-header.js';
import { readCreateCompany } from '../management-bodies.js';
import type { ManagementDependencies } from '../management-dependencies.js';
import type { ManagementState } from '../management-state.js';
import { authorizeForCompany, authorizeForEveryCompany } from '../operation-scopes.js';
import { presentCompany } from '../presenters/key-view.presenter.js';
import { companyPath } from '../resource-paths.js';

/**
 * POST /companies and GET /companies/{companyId}. Every route checks, in this order: the token's scope and
 * companies (operation-scopes.ts), X-Actor, the path's ids,
 * the query string (these operations take no parameter), then the body; the use case does the rest.
 */
export function registerCompanyRoutes(router: Router<ManagementState>, deps: Pick<ManagementDependencies, 'createCompany' | 'getCompany'>): void {
  router.post('/companies', async (ctx) => {
    authorizeForEveryCompany(ctx, 'createCompany');
    actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    const { name } = readCreateCompany(await readJsonBody(ctx));
    const company = await deps.createCompany.execute({ name });
    ctx.status = 201;
    ctx.set('Location', companyPath(company.id));
    ctx.body = presentCompany(company);
  });

  router.get('/companies/:companyId', async (ctx) => {
    const companyId = authorizeForCompany(ctx, 'getCompany');
    actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    ctx.body = presentCompany(await deps.getCompany.execute({ companyId }));
  });
}
