import { expect } from 'chai';
import { lintOpenApi as lint, lintSummary as summary } from '../support/redocly-lint.js';
import { startTestServer } from '../support/http-test-server.js';

describe('The OpenAPI document under a real linter (@redocly/cli)', function () {
  this.timeout(60_000);
  let document: any;

  before(async () => {
    const server = await startTestServer();
    try {
      document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    } finally {
      await server.close();
    }
  });

  it('has no error and no warning under the committed rules', async () => {
    const report = await lint(document);
    expect(summary(report)).to.deep.equal([]);
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });

  it('would report an example that breaks its schema, a missing request id header and an error that is not problem+json', async () => {
    const broken = structuredClone(document);
    const post = broken.paths['/integration/v1/applications'].post;
    post.requestBody.content['application/json'].examples.full.value.candidate.name = 42;
    delete post.responses['201'].headers['X-Request-Id'];
    post.responses['404'].content = { 'text/plain': { schema: { type: 'string' } } };
    const rules = (await lint(broken)).problems.map((p) => p.ruleId);
    expect(rules).to.include.members(['no-invalid-media-type-examples', 'response-contains-header', 'operation-4xx-problem-details-rfc7807']);
  });
});
