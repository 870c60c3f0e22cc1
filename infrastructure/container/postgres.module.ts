import type { ContainerModule } from 'inversify';
import type { AppConfig } from '../config.js';

// Placeholder until the PostgreSQL adapters land (issue 3): the postgres profile is refused with a clear message.
export async function postgresModule(_config: AppConfig): Promise<ContainerModule> {
  throw new Error('STORE=postgres is not available in this build yet; run with STORE=memory.');
}
