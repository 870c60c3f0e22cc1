import type { Logger } from 'pino';
import { portToken } from '../../application/ports/port-token.js';
import type { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import type { AppConfig } from '../config.js';
import type { Databases } from '../database/open-databases.js';
import type { StopRequest } from '../stop-request.js';

export const CONFIG = portToken<AppConfig>('AppConfig');
export const LOGGER = portToken<Logger>('Logger');
export const IN_MEMORY_DATABASE = portToken<InMemoryDatabase>('InMemoryDatabase');
/** Whether the stores answer; /readyz asks it. */
export const READINESS = portToken<() => Promise<boolean>>('Readiness');
/** Whether the process has been asked to stop; /readyz answers 503 from then on. */
export const STOP_REQUEST = portToken<StopRequest>('StopRequest');
/** STORE=postgres: the open MikroORM instances (and the embedded server); deactivating it closes them. */
export const POSTGRES_DATABASES = portToken<Databases>('PostgresDatabases');
