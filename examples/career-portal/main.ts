import { answerHelp } from '../../infrastructure/process-arguments.js';
import { publicOriginOf } from './src/cross-site.js';
import { DEFAULT_SUBMIT_BUDGET, startPortal } from './src/start-portal.js';

const USAGE = `Usage: npm run portal   (or: npx tsx examples/career-portal/main.ts)

The career portal: a company's open vacancies on pages of its own and an application form, over the
integration API. Configured by environment variables:

  API_BASE_URL             required: {base_url} of the deployment, ending in /api (http://127.0.0.1:8080/api)
  API_KEY                  required: a service key with vacancies:read and applications:write
  PORTAL_PORT / _HOST      where the portal listens (3000 / 127.0.0.1)
  PORTAL_TITLE             the site's name in the header and the page titles
  PORTAL_PUBLIC_URL        the address visitors open, when it is not the listening one
  PORTAL_SUBMIT_LIMIT      applications one client address may send per window (${DEFAULT_SUBMIT_BUDGET.points})
  PORTAL_SUBMIT_WINDOW_S   that window in seconds (${DEFAULT_SUBMIT_BUDGET.windowS})
  PORTAL_TRUST_PROXY       proxies in front that append to X-Forwarded-For (0: the socket's address)

See examples/career-portal/README.md. SIGTERM or SIGINT: stop, exit 0.
`;

answerHelp(process.argv.slice(2), 'npm run portal', USAGE);

/** `npm run portal`: the portal on PORTAL_PORT, over the API at API_BASE_URL with the key API_KEY. */
function required(name: string): string {
  const value = process.env[name]?.trim();
  if (value === undefined || value === '') {
    process.stderr.write(`career-portal: set ${name} (see examples/career-portal/README.md)\n`);
    process.exit(1);
  }
  return value;
}

/** A whole number from `min` to `max`, or the default when the variable is unset or blank. */
function wholeNumber(name: string, fallback: number, min: number, max: number, meaning: string): number {
  const text = process.env[name]?.trim();
  const value = text === undefined || text === '' ? fallback : Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    process.stderr.write(`career-portal: ${name} must be ${meaning}, ${min} to ${max}, not "${text}"\n`);
    process.exit(1);
  }
  return value;
}

const port = wholeNumber('PORTAL_PORT', 3000, 0, 65_535, 'a port number');
const publicUrl = process.env.PORTAL_PUBLIC_URL?.trim() || undefined;
try {
  if (publicUrl !== undefined) publicOriginOf(publicUrl);
} catch {
  process.stderr.write(`career-portal: PORTAL_PUBLIC_URL must be the address visitors open, such as https://jobs.example.kz, not "${publicUrl}"\n`);
  process.exit(1);
}

const portal = await startPortal({
  apiBaseUrl: required('API_BASE_URL'),
  apiKey: required('API_KEY'),
  port,
  host: process.env.PORTAL_HOST ?? '127.0.0.1',
  ...(process.env.PORTAL_TITLE ? { siteTitle: process.env.PORTAL_TITLE } : {}),
  ...(publicUrl === undefined ? {} : { publicUrl }),
  submitBudget: {
    points: wholeNumber('PORTAL_SUBMIT_LIMIT', DEFAULT_SUBMIT_BUDGET.points, 1, 100_000, 'the number of applications one address may send per window'),
    windowS: wholeNumber('PORTAL_SUBMIT_WINDOW_S', DEFAULT_SUBMIT_BUDGET.windowS, 1, 86_400, 'the window in seconds'),
  },
  trustProxy: wholeNumber('PORTAL_TRUST_PROXY', 0, 0, 10, 'the number of proxies in front that append to X-Forwarded-For'),
});
process.stderr.write(`career-portal: listening on ${portal.url}; public origin ${publicUrl === undefined ? portal.url : publicOriginOf(publicUrl)}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void portal.close().then(() => process.exit(0)));
}
