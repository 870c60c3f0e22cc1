import { expect } from 'chai';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { stablePort } from '../support/stable-port.js';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';

/** The TCP ports a process listens on (Linux: its socket descriptors matched with /proc/net/tcp's LISTEN rows). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter((inode): inode is string => inode !== undefined);
      } catch {
        return [];
      }
    }),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((row) => row.trim().split(/\s+/))
      .filter((cols) => cols[3] === '0A' && inodes.has(cols[9] ?? ''))
      .map((cols) => parseInt(cols[1]!.split(':')[1]!, 16)),
  );
}

/** How a start that must fail ends: the message of startServerProcess's refusal, with what the process printed. */
async function failedStart(env: Record<string, string>): Promise<string> {
  let failure = '';
  await startServerProcess({ STORE: 'memory', ...env }).then(
    async (started) => {
      await started.stop();
      failure = 'it started';
    },
    (error: Error) => (failure = error.message),
  );
  return failure;
}

describe('The management listener (the real server process)', function () {
  this.timeout(90_000);
  let server: ServerProcess | undefined;
  afterEach(async () => server?.stop());

  it('serves the management API on MANAGEMENT_PORT beside the public port, never on it, and stops with it (exit 0)', async () => {
    const port = await stablePort();
    server = await startServerProcess({ STORE: 'memory', MANAGEMENT_PORT: String(port) });
    expect(server.managementUrl).to.equal(`http://127.0.0.1:${port}/internal/v1`);
    expect(listeningPorts(server.child.pid!).sort()).to.deep.equal([port, server.port].sort());

    const token = String(server.logs().find((line) => typeof line.developmentPlatformToken === 'string')?.developmentPlatformToken);
    const companyId = String(server.logs().find((line) => typeof line.developmentKey === 'string')?.companyId);
    const keys = await fetch(`${server.managementUrl}/companies/${companyId}/keys`, { headers: { Authorization: `Bearer ${token}`, 'X-Actor': 'ops' } });
    expect(keys.status, 'the development platform token of STORE=memory').to.equal(200);
    expect(((await keys.json()) as { items: unknown[] }).items).to.have.length(1);
    expect(server.output().split(token), 'the token appears in its one log line only').to.have.length(2);

    for (const path of ['/internal/v1/openapi.json', `/internal/v1/companies/${companyId}/keys`]) {
      const onPublic = await fetch(`${server.origin}${path}`, { headers: { Authorization: `Bearer ${token}`, 'X-Actor': 'ops' } });
      expect([onPublic.status, ((await onPublic.json()) as { code: string }).code], `the public port, ${path}`).to.deep.equal([404, 'not_found']);
    }
    const publicOnManagement = await fetch(`http://127.0.0.1:${port}/api/integration/v1/openapi.json`);
    expect(publicOnManagement.status, 'the public API is not on the management port').to.equal(404);

    await server.stop();
    expect((await server.exited).code).to.equal(0);
  });

  it('drains on SIGTERM: a management request in flight is answered (Connection: close), then the process exits 0', async () => {
    const port = await stablePort();
    server = await startServerProcess({ STORE: 'memory', MANAGEMENT_PORT: String(port) });
    const token = String(server.logs().find((line) => typeof line.developmentPlatformToken === 'string')?.developmentPlatformToken);
    const body = JSON.stringify({ name: 'ТОО «Во время остановки»' });
    const bytes = Buffer.from(body);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    await new Promise<void>((connected) => socket.once('connect', () => connected()));
    socket.write(
      `POST /internal/v1/companies HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nX-Actor: ops\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`,
    );
    socket.write(bytes.subarray(0, 10));
    server.child.kill('SIGTERM');
    const running = server;
    const draining = async () => running.logs().some((line) => line.msg === 'draining requests in flight, then stopping');
    for (let waited = 0; !(await draining()) && waited < 20_000; waited += 50) await new Promise((tick) => setTimeout(tick, 50));
    expect(await draining(), server.output()).to.equal(true);
    socket.end(bytes.subarray(10));
    await closed;
    expect(answer).to.match(/^HTTP\/1\.1 201 Created\r\n/).and.match(/\r\nConnection: close\r\n/i);
    expect(answer).to.contain('"name":"ТОО «Во время остановки»"');
    expect((await server.exited).code).to.equal(0);
  });

  it('starts no management listener with MANAGEMENT_PORT=0', async () => {
    server = await startServerProcess({ STORE: 'memory', MANAGEMENT_PORT: '0' });
    expect(server.managementUrl).to.equal(null);
    expect(listeningPorts(server.child.pid!)).to.deep.equal([server.port]);
    expect(server.output()).not.to.contain('developmentPlatformToken');
  });

  it('refuses to start, naming the variable, on a bad MANAGEMENT_PORT or MANAGEMENT_HOST, on the public port, or on a port that is taken', async () => {
    expect(await failedStart({ MANAGEMENT_PORT: '70000' })).to.match(/exited \(1\) before it listened/).and.contain('MANAGEMENT_PORT must be a whole number from 0 to 65535 (0 turns the management API off); got "70000"');
    expect(await failedStart({ MANAGEMENT_HOST: 'two words' })).to.contain('MANAGEMENT_HOST must be a host name or an IP address');
    const port = await stablePort();
    expect(await failedStart({ PORT: String(port), MANAGEMENT_PORT: String(port) })).to.contain(`MANAGEMENT_PORT must differ from PORT`);
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    try {
      const taken = (holder.address() as { port: number }).port;
      expect(await failedStart({ MANAGEMENT_PORT: String(taken) })).to.match(/exited \(1\)/).and.contain('the management API cannot listen on 127.0.0.1').and.contain('MANAGEMENT_PORT');
    } finally {
      holder.close();
    }
  });
});
