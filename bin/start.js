#!/usr/bin/env node
// `npm start`: the service, compiled, run by plain node in this very process (the npm script execs it),
// so that a signal sent to `npm start`, to this process or to its process group reaches the service.
import { setFlagsFromString } from 'node:v8';
import { ensureBuilt } from './build.js';

// V8 lets the old generation grow to four times what survived the last full collection when collecting
// is cheap, and a sync's pages, promoted while in flight, fill it with garbage meanwhile: 270 MB of RSS
// during a full sync where 35 MB is live. Twice what survived keeps it under 180 MB for a few percent of
// CPU under load (ADR 18, bench/README.md). A `--heap-growing-percent` given to node itself wins.
if (!process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) {
  setFlagsFromString('--heap-growing-percent=100');
}
ensureBuilt();
process.setSourceMapsEnabled(true);
await import('../dist/infrastructure/main.js');
