import type { Container } from 'inversify';
import { createManagementApp } from '../adapters/management/create-management-app.js';
import { CONFIG } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { serveKoaApp, type RunningServer } from './http-server.js';
import { openManagementDependencies } from './management-dependencies.js';

/**
 * The management API on MANAGEMENT_HOST:MANAGEMENT_PORT, beside the public listener and never on it; null
 * when MANAGEMENT_PORT is 0 (off). `overrides.port` 0 picks a free port (tests), unlike the setting. It
 * drains on close as the public listener does.
 */
export async function startManagementServer(container: Container, overrides: { port?: number; host?: string } = {}): Promise<RunningServer | null> {
  const config = resolve(container, CONFIG);
  const port = overrides.port ?? config.managementPort;
  if (overrides.port === undefined && port === 0) return null;
  const app = createManagementApp(await openManagementDependencies(container));
  return serveKoaApp(app, port, overrides.host ?? config.managementHost);
}
