/** The client, plus what needs Node's file system: a sync state in a file and mirrors as JSON-lines files. */
export * from './index.js';
export { FileSyncStateStore } from './node/file-sync-state.js';
export { JsonlMirror, type MirrorChanges } from './node/jsonl-mirror.js';
export { mirrorToDirectory, type MirrorDirectoryOptions, type MirrorDirectoryResult } from './node/mirror-directory.js';
