import type { MigrationObject } from '@mikro-orm/core';
import { Migration20251122000000BusinessTables } from './business/Migration20251122000000BusinessTables.js';
import { Migration20261124000000TransferOncePerVacancy } from './business/Migration20261124000000TransferOncePerVacancy.js';
import { Migration20261125000000FeedLedger } from './business/Migration20261125000000FeedLedger.js';
import { Migration20261127000000Renderings } from './business/Migration20261127000000Renderings.js';
import { Migration20261129000000DeletionTimes } from './business/Migration20261129000000DeletionTimes.js';
import { Migration20261202000000DropEventTimes } from './business/Migration20261202000000DropEventTimes.js';
import { Migration20251122000000RegistryTables } from './registry/Migration20251122000000RegistryTables.js';
import { Migration20261126000000KeyEvents } from './registry/Migration20261126000000KeyEvents.js';
import { Migration20261202000000KeyEventSequence } from './registry/Migration20261202000000KeyEventSequence.js';
import { Migration20261202000000PlatformTokenScopes } from './registry/Migration20261202000000PlatformTokenScopes.js';

/**
 * Two sets with their own history tables: the key registry's (KEYS_DATABASE_URL) and a region's business
 * tables (DATABASE_URL). When both URLs name one database, both sets apply to it side by side.
 */
export interface MigrationSet {
  readonly name: 'registry' | 'business';
  readonly tableName: string;
  readonly migrations: readonly MigrationObject[];
}

export const REGISTRY_MIGRATIONS: MigrationSet = {
  name: 'registry',
  tableName: 'mikro_orm_migrations_registry',
  migrations: [
    { name: 'Migration20251122000000RegistryTables', class: Migration20251122000000RegistryTables },
    { name: 'Migration20261126000000KeyEvents', class: Migration20261126000000KeyEvents },
    { name: 'Migration20261202000000KeyEventSequence', class: Migration20261202000000KeyEventSequence },
    { name: 'Migration20261202000000PlatformTokenScopes', class: Migration20261202000000PlatformTokenScopes },
  ],
};

export const BUSINESS_MIGRATIONS: MigrationSet = {
  name: 'business',
  tableName: 'mikro_orm_migrations_business',
  migrations: [
    { name: 'Migration20251122000000BusinessTables', class: Migration20251122000000BusinessTables },
    { name: 'Migration20261124000000TransferOncePerVacancy', class: Migration20261124000000TransferOncePerVacancy },
    { name: 'Migration20261125000000FeedLedger', class: Migration20261125000000FeedLedger },
    { name: 'Migration20261127000000Renderings', class: Migration20261127000000Renderings },
    { name: 'Migration20261129000000DeletionTimes', class: Migration20261129000000DeletionTimes },
    { name: 'Migration20261202000000DropEventTimes', class: Migration20261202000000DropEventTimes },
  ],
};
