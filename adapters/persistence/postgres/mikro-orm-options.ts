import type { EntitySchema } from '@mikro-orm/core';
import { PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { BoardRowSchema } from './entities/board.entity.js';
import { CandidateRowSchema } from './entities/candidate.entity.js';
import { CompanyRowSchema } from './entities/company.entity.js';
import { ServiceKeyRowSchema } from './entities/service-key.entity.js';
import { VacancyRowSchema } from './entities/vacancy.entity.js';

export const REGISTRY_ENTITIES = [CompanyRowSchema, ServiceKeyRowSchema];
export const BUSINESS_ENTITIES = [VacancyRowSchema, BoardRowSchema, CandidateRowSchema];

export interface PostgresConnectionSettings {
  readonly url: string;
  /** Most connections the pool opens. */
  readonly poolMax?: number;
  /** Names the instance in MikroORM's own async context, so that two instances never pick up each other's. */
  readonly contextName: string;
  readonly debug?: boolean;
}

/**
 * MikroORM options for one PostgreSQL database. The schema belongs to the committed migrations, never to
 * the entity metadata: no ensureDatabase, no schema update at start.
 */
export function mikroOrmOptions(settings: PostgresConnectionSettings, entities: readonly EntitySchema<any>[]): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: settings.url,
    entities: [...entities],
    contextName: settings.contextName,
    discovery: { warnWhenNoEntities: false },
    ensureDatabase: false,
    allowGlobalContext: false,
    // Dates travel as ISO 8601 in UTC, whatever the process's or the session's time zone.
    forceUtcTimezone: true,
    pool: { min: 0, max: settings.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    debug: settings.debug ?? false,
  };
}
