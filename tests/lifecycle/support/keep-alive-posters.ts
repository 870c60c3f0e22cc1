import { Agent, request, type IncomingMessage } from 'node:http';
import { aMinimalApplicationBody } from '../../support/http-fixtures.js';

export interface Answer {
  /** Which client (and so which keep-alive connection, until it is closed) got it. */
  readonly client: number;
  readonly externalId: string;
  readonly status: number;
  /** The card id of a 201/200. */
  readonly id: string | null;
  /** When the answer arrived, and whether it said `Connection: close`. */
  readonly at: number;
  readonly connectionClose: boolean;
}

/**
 * Clients that post applications back to back, each on its own keep-alive connection, until told to stop
 * or until the server no longer takes their connection (refused or reset: the drain closed it). What they
 * were answered is what the test checks against the store.
 */
export class KeepAlivePosters {
  readonly answers: Answer[] = [];
  readonly transportErrors: string[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[];
  private readonly agent: Agent;

  constructor(
    private readonly apiUrl: string,
    private readonly key: string,
    private readonly vacancyId: string,
    clients: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: clients });
    this.loops = Array.from({ length: clients }, (_, client) => this.loop(client));
  }

  /** Resolves once every client has stopped (told to, or its connection gone). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
    this.agent.destroy();
  }

  finished(): Promise<void> {
    return Promise.all(this.loops).then(() => undefined);
  }

  private async loop(client: number): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const body = aMinimalApplicationBody(this.vacancyId, { externalId: `drain-${client}-${n}` });
      try {
        this.answers.push({ client, ...(await this.post(body)) });
      } catch (error) {
        this.transportErrors.push((error as NodeJS.ErrnoException).code ?? String(error));
        return;
      }
    }
  }

  private post(body: { externalId: string }): Promise<Omit<Answer, 'client'>> {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise((answered, failed) => {
      const req = request(`${this.apiUrl}/applications`, {
        method: 'POST',
        agent: this.agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, 'X-API-Key': this.key },
      });
      req.once('error', failed);
      req.once('response', (response) => answerOf(response, body.externalId).then(answered, failed));
      req.end(payload);
    });
  }
}

/** An answer to an application as the clients keep it: its status, the card id of a 201/200, when it came, whether it closed the connection. */
function answerOf(response: IncomingMessage, externalId: string): Promise<Omit<Answer, 'client'>> {
  return new Promise((answered, failed) => {
    let text = '';
    response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    response.once('error', failed);
    response.once('end', () => {
      const status = response.statusCode ?? 0;
      const id = status === 200 || status === 201 ? (JSON.parse(text) as { id: string }).id : null;
      answered({ externalId, status, id, at: Date.now(), connectionClose: response.headers.connection === 'close' });
    });
  });
}

/**
 * One application held in flight at will, on a keep-alive connection of its own: its headers go with
 * `Expect: 100-continue`, and Node's server answers 100 Continue in the same step as it calls the service's
 * handler, so once `open` resolves the request is in flight, whatever the timing. Its body waits for `release`.
 * A drain that begins meanwhile must answer it, with `Connection: close`.
 */
export class HeldApplication {
  private constructor(
    private readonly agent: Agent,
    private readonly payload: Buffer,
    private readonly finish: (payload: Buffer) => void,
    readonly answer: Promise<Omit<Answer, 'client'>>,
  ) {}

  static open(apiUrl: string, key: string, vacancyId: string, externalId: string): Promise<HeldApplication> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const payload = Buffer.from(JSON.stringify(aMinimalApplicationBody(vacancyId, { externalId })));
    return new Promise((taken, failed) => {
      const req = request(`${apiUrl}/applications`, {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, 'X-API-Key': key, Expect: '100-continue' },
      });
      const answer = new Promise<Omit<Answer, 'client'>>((answered, lost) => {
        req.once('error', lost);
        req.once('response', (response) => answerOf(response, externalId).then(answered, lost));
      });
      answer.catch(failed);
      req.once('continue', () => taken(new HeldApplication(agent, payload, (body) => req.end(body), answer)));
      req.flushHeaders();
    });
  }

  /** Sends the body; resolves with the answer. */
  async release(): Promise<Omit<Answer, 'client'>> {
    this.finish(this.payload);
    try {
      return await this.answer;
    } finally {
      this.agent.destroy();
    }
  }
}
