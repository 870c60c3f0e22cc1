import { Container, type ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import { loadConfig, type AppConfig, type StoreKind } from '../config.js';
import { createLogger } from '../logger.js';
import { coreModule } from './core.module.js';
import { POSTGRES_DATABASES } from './infrastructure.tokens.js';
import { memoryModule } from './memory.module.js';
import { rateLimitModule } from './rate-limit.module.js';
import { resolve } from './typed-binding.js';
import { useCasesModule } from './use-cases.module.js';

export interface BuildContainerOptions {
  /** Which driven adapters to bind; defaults to config.store. */
  readonly profile?: StoreKind;
  /** Overrides of the settings read from the environment. */
  readonly config?: Partial<AppConfig>;
  /** A clock of the caller's, for tests that control time. */
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/**
 * The one composition root: ports bound to the adapters of a profile, use cases bound to factories.
 * Singletons throughout; `disposeContainer` releases what they hold (pools, embedded database).
 */
export async function buildContainer(options: BuildContainerOptions = {}): Promise<Container> {
  const config: AppConfig = { ...loadConfig(), ...options.config };
  const profile = options.profile ?? config.store;
  const logger = options.logger ?? createLogger(config.logLevel);
  const container = new Container({ defaultScope: 'Singleton' });
  await container.loadAsync(coreModule({ ...config, store: profile }, logger, options.clock), useCasesModule, await storeModule(profile, config, logger), rateLimitModule);
  return container;
}

async function storeModule(profile: StoreKind, config: AppConfig, logger: Logger): Promise<ContainerModule> {
  if (profile === 'memory') return memoryModule;
  // Loaded on demand, so that the memory profile never loads the ORM.
  const { postgresModule } = await import('./postgres.module.js');
  return postgresModule(config, logger);
}

/** Releases every resolved singleton (their deactivation hooks close pools and databases). */
export async function disposeContainer(container: Container): Promise<void> {
  // Deactivation runs only for singletons that were resolved: resolve the databases, so that they close
  // even when nothing used them (the admin CLI's `migrate`).
  if (container.isBound(POSTGRES_DATABASES)) resolve(container, POSTGRES_DATABASES);
  await container.unbindAllAsync();
}
