import type { Router } from '@koa/router';
import { requireScope } from '../../../domain/service-key/service-key.js';
import { parseApplicationRequest } from '../application-request.js';
import { principalOf } from '../gatekeeper.middleware.js';
import type { HttpDependencies } from '../http-dependencies.js';
import type { HttpState } from '../http-state.js';
import { readJsonBody } from '../json-body.js';
import { refuseUnknownParameters } from '../list-query.js';

/** POST /applications (spec 4.3): creates a card once per externalId and company. */
export function registerApplicationRoutes(router: Router<HttpState>, deps: Pick<HttpDependencies, 'submitApplication' | 'logger' | 'metrics'>): void {
  router.post('/applications', async (ctx) => {
    const principal = principalOf(ctx);
    requireScope(principal, 'applications:write');
    // The operation takes no query parameters: one sent is a client's mistake (a filter or a flag it believes
    // in), told before the body is read.
    refuseUnknownParameters(ctx.querystring, []);
    const application = parseApplicationRequest(await readJsonBody(ctx));
    const result = await deps.submitApplication.execute({ companyId: principal.companyId, application });
    deps.metrics?.applicationAccepted(result.status);
    if (result.status === 'created') {
      ctx.status = 201;
      ctx.body = { id: result.id, status: 'created' };
      return;
    }
    ctx.set('Idempotent-Replayed', 'true');
    if (result.bodyDiffers) {
      ctx.set('Idempotency-Conflict', 'body-differs');
      // Ids only: the bodies hold personal data.
      deps.logger.warn(
        { requestId: ctx.state.requestId, keyId: principal.keyId, candidateId: result.id },
        'application repeated an earlier externalId with a different body; nothing was changed',
      );
    }
    ctx.status = 200;
    ctx.body = { id: result.id, status: 'duplicate' };
  });
}
