import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { ApiResponse } from '../support/api-client.js';
import { eventually } from '../rate-limit/support/stores.js';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** The secret of a key or token (the part after its id), and its hash as the registry stores it. */
const secretsOf = (whole: string) => {
  const secret = whole.split('_')[2]!;
  return [whole, secret, sha256(secret)];
};

describe('The management API: secrets and personal data', () => {
  let server: ManagementTestServer;
  before(async () => {
    server = await startManagementTestServer();
  });
  after(() => server.close());

  it('shows a secret only in the answer that issued it: never in a list, an event, another answer or a log line; the log holds no token and no actor', async () => {
    const actor = 'Айгерим Нурланова <aigerim.nurlanova@example.kz>';
    const encodedActor = encodeURIComponent(actor);
    const client = server.client.as({ actor: encodedActor });
    const answers: ApiResponse[] = [];
    const send = async (response: Promise<ApiResponse>) => {
      const answer = await response;
      answers.push(answer);
      return answer;
    };
    const companyId = (await send(client.post('/companies', { name: 'ТОО «Секрет»' }))).body.id;
    const issued = await client.post(`/companies/${companyId}/keys`, { name: 'Портал', scopes: ['vacancies:read', 'candidates:read'] });
    expect(issued.status).to.equal(201);
    expect((await server.publicClient(issued.body.key).get('/vacancies')).status).to.equal(200);
    const rolled = await client.post(`/companies/${companyId}/keys/${issued.body.id}/roll`, { oldKeyExpiresAt: new Date(server.clock.peek().getTime() + 60_000).toISOString() });
    expect(rolled.status).to.equal(201);
    const successor = rolled.body.issued;
    await send(client.post(`/companies/${companyId}/keys/${successor.id}/revoke`));
    await send(client.post(`/companies/${companyId}/keys/${successor.id}/roll`));
    await send(client.post(`/companies/${companyId}/keys`, { name: 'x', scopes: ['nope'] }));
    await send(client.get(`/companies/${companyId}/keys`, { headers: { 'X-Request-Id': 'list' } }));
    await send(server.client.get(`/companies/${companyId}/keys`, { token: `${server.token}x` }));
    await send(server.client.get(`/companies/${companyId}?token=${server.token}`, { actor: 'line%0Abreak' }));
    expect(await eventually(async () => (await send(client.get(`/companies/${companyId}/key-events`))).body.items.some((e: any) => e.type === 'first_used'), 10_000)).to.equal(true);

    const secrets = [...secretsOf(issued.body.key), ...secretsOf(successor.key), ...secretsOf(server.token)];
    const everyOtherAnswer = answers.map((a) => a.text).join('\n');
    for (const secret of secrets) expect(everyOtherAnswer, 'a list, an event or an error').not.to.contain(secret);
    expect(everyOtherAnswer).not.to.match(/secretHash|secret_hash/i);
    expect(issued.text.split(issued.body.key.split('_')[2]), 'the secret, once, in the key field').to.have.length(2);
    expect(rolled.text.split(successor.key.split('_')[2])).to.have.length(2);
    for (const text of [issued.text, rolled.text]) expect(text).not.to.contain(sha256(issued.body.key.split('_')[2])).and.not.to.contain(sha256(successor.key.split('_')[2]));

    const logs = server.rawLogs();
    for (const secret of [...secrets, actor, encodedActor, 'Айгерим', 'aigerim', 'ТОО «Секрет»', 'line%0Abreak']) expect(logs, secret).not.to.contain(secret);
    const lines = server.logs().filter((line) => line.msg === 'request' && typeof line.route === 'string' && String(line.route).startsWith('/internal/v1'));
    expect(lines.length, 'one line per management request').to.be.at.least(answers.length + 2);
    for (const line of lines) {
      expect(Object.keys(line).filter((k) => !['level', 'time', 'pid', 'hostname', 'msg'].includes(k))).to.have.members(['requestId', 'tokenId', 'method', 'route', 'status', 'code', 'durationMs']);
      expect(line.tokenId === null || line.tokenId === server.tokenId, JSON.stringify(line)).to.equal(true);
    }
    expect(lines.find((line) => line.requestId === 'list')).to.include({ tokenId: server.tokenId, route: '/internal/v1/companies/:companyId/keys', status: 200, code: null });
    expect(lines.filter((line) => line.status === 401).map((line) => line.tokenId)).to.deep.equal([null]);
  });
});
