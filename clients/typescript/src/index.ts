/**
 * @hiring/integration-client: a typed client of the integration API. Runs wherever fetch does; file-based
 * sync state and mirrors are in '@hiring/integration-client/node'.
 */
export { ApiError, NetworkError, RedirectError } from './api-error.js';
export {
  IntegrationClient,
  type ApplicationResult,
  type CallOptions,
  type IntegrationClientOptions,
  type NotModified,
  type Page,
  type PageMeta,
} from './integration-client.js';
export type { RetryOptions } from './retry.js';
export { checkSyncAccess, SyncAccessError, type ResourceReport, type SyncOptions, type SyncPageEvent, type SyncReport } from './sync/sync-engine.js';
export { MemorySyncStateStore, SyncStateError, type PassState, type ResourceState, type SyncResource, type SyncState, type SyncStateStore } from './sync/sync-state.js';
export { MemorySyncTarget, type SyncRecord, type SyncTarget } from './sync/sync-target.js';
export type * from './types.js';
export type { components, operations, paths } from './openapi-types.js';
