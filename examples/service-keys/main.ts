import { answerHelp } from '../../infrastructure/process-arguments.js';
import { publicOriginOf } from '../career-portal/src/cross-site.js';
import { isActor, type IdentitySource } from './src/identity.js';
import { isLanguage } from './src/language.js';
import { startServiceKeys } from './src/start-service-keys.js';
import { isTimeZone } from './src/time-words.js';

const USAGE = `Usage: npm run service-keys   (or: npx tsx examples/service-keys/main.ts)

The "Service keys" page of the platform: a company's service keys, issuing, rolling and revoking them, and
their event trail, over the integration API's management listener. Configured by environment variables:

  MANAGEMENT_URL                 required: the management listener, e.g. http://127.0.0.1:8081
  PLATFORM_TOKEN                 required: a platform token (npm run admin -- platform-token issue --name N)
  SERVICE_KEYS_IDENTITY          config (default) or headers: where the company and the acting user come from
  SERVICE_KEYS_COMPANY_ID        with config: the company whose keys are shown
  SERVICE_KEYS_ACTOR             with config: the platform user recorded as acting (e.g. asel@example.kz)
                                 with headers: the platform's proxy sets X-Platform-Company and X-Platform-User
                                 (the user percent-encoded as UTF-8) on every request
  SERVICE_KEYS_PORT / _HOST      where the page listens (3001 / 127.0.0.1)
  SERVICE_KEYS_PUBLIC_URL        the address people open, when it is not the listening one
  SERVICE_KEYS_LANGUAGE          ru (default) or en, when neither ?lang= nor Accept-Language decides
  SERVICE_KEYS_TIME_ZONE         IANA zone of the times shown (UTC; e.g. Asia/Almaty, Asia/Tashkent)
  SERVICE_KEYS_FORM_SECRET       key of the form tokens, 32+ characters (random per process when unset)
  SERVICE_KEYS_FRAME_ANCESTORS   origins that may frame the page, space-separated (none when unset)

See examples/service-keys/README.md. SIGTERM or SIGINT: stop, exit 0.
`;

function fail(message: string): never {
  process.stderr.write(`service-keys: ${message} (see --help)\n`);
  process.exit(1);
}

function setting(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function required(name: string): string {
  return setting(name) ?? fail(`set ${name}`);
}

answerHelp(process.argv.slice(2), 'npm run service-keys', USAGE);

const identity = ((): IdentitySource => {
  const kind = setting('SERVICE_KEYS_IDENTITY') ?? 'config';
  if (kind === 'headers') return { kind: 'headers' };
  if (kind !== 'config') fail(`SERVICE_KEYS_IDENTITY must be config or headers, not "${kind}"`);
  const actor = required('SERVICE_KEYS_ACTOR');
  if (!isActor(actor)) fail(`SERVICE_KEYS_ACTOR must be 1 to 200 characters without control characters, invisible format characters or line separators, not ${JSON.stringify(actor)}`);
  return { kind: 'config', caller: { companyId: required('SERVICE_KEYS_COMPANY_ID'), actor } };
})();

const portText = setting('SERVICE_KEYS_PORT') ?? '3001';
const port = Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`SERVICE_KEYS_PORT must be a port number, not "${portText}"`);
const publicUrl = setting('SERVICE_KEYS_PUBLIC_URL');
try {
  if (publicUrl !== undefined) publicOriginOf(publicUrl);
} catch {
  fail(`SERVICE_KEYS_PUBLIC_URL must be the address people open, such as https://platform.example.kz, not "${publicUrl}"`);
}
const language = setting('SERVICE_KEYS_LANGUAGE') ?? 'ru';
if (!isLanguage(language)) fail(`SERVICE_KEYS_LANGUAGE must be ru or en, not "${language}"`);
const timeZone = setting('SERVICE_KEYS_TIME_ZONE') ?? 'UTC';
if (!isTimeZone(timeZone)) fail(`SERVICE_KEYS_TIME_ZONE must be an IANA time zone such as Asia/Almaty, not "${timeZone}"`);
const formSecret = setting('SERVICE_KEYS_FORM_SECRET');
if (formSecret !== undefined && formSecret.length < 32) fail('SERVICE_KEYS_FORM_SECRET must be at least 32 characters');
const frameAncestors = (setting('SERVICE_KEYS_FRAME_ANCESTORS') ?? '').split(/\s+/).filter((origin) => origin !== '');
for (const origin of frameAncestors) {
  if (!/^https?:\/\/[^\s/;,']+$/.test(origin)) fail(`SERVICE_KEYS_FRAME_ANCESTORS must list origins such as https://platform.example.kz, not "${origin}"`);
}
const managementUrl = required('MANAGEMENT_URL');
if (!/^https?:\/\/[^\s]+$/.test(managementUrl)) fail(`MANAGEMENT_URL must be an http:// or https:// URL, not "${managementUrl}"`);

const page = await startServiceKeys({
  managementUrl,
  platformToken: required('PLATFORM_TOKEN'),
  identity,
  port,
  host: setting('SERVICE_KEYS_HOST') ?? '127.0.0.1',
  ...(publicUrl === undefined ? {} : { publicUrl }),
  defaultLanguage: language,
  timeZone,
  ...(formSecret === undefined ? {} : { formSecret: Buffer.from(formSecret, 'utf8') }),
  frameAncestors,
}).catch((error: unknown) => fail(`cannot listen: ${error instanceof Error ? error.message : String(error)}`));
process.stderr.write(`service-keys: listening on ${page.url} (identity: ${identity.kind}); management API at ${managementUrl}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void page.close().then(() => process.exit(0)));
}
