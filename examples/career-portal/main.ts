import { startPortal } from './src/start-portal.js';

/** `npm run portal`: the portal on PORTAL_PORT, over the API at API_BASE_URL with the key API_KEY. */
function required(name: string): string {
  const value = process.env[name]?.trim();
  if (value === undefined || value === '') {
    process.stderr.write(`career-portal: set ${name} (see examples/career-portal/README.md)\n`);
    process.exit(1);
  }
  return value;
}

const port = Number(process.env.PORTAL_PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`career-portal: PORTAL_PORT must be a port number, not "${process.env.PORTAL_PORT}"\n`);
  process.exit(1);
}

const portal = await startPortal({
  apiBaseUrl: required('API_BASE_URL'),
  apiKey: required('API_KEY'),
  port,
  host: process.env.PORTAL_HOST ?? '127.0.0.1',
  ...(process.env.PORTAL_TITLE ? { siteTitle: process.env.PORTAL_TITLE } : {}),
});
process.stderr.write(`career-portal: listening on ${portal.url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void portal.close().then(() => process.exit(0)));
}
