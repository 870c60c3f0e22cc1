import type { Logger } from 'pino';
import { portToken } from '../../application/ports/port-token.js';
import type { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import type { AppConfig } from '../config.js';

export const CONFIG = portToken<AppConfig>('AppConfig');
export const LOGGER = portToken<Logger>('Logger');
export const IN_MEMORY_DATABASE = portToken<InMemoryDatabase>('InMemoryDatabase');
/** Whether the stores answer; /readyz asks it. */
export const READINESS = portToken<() => Promise<boolean>>('Readiness');
