#!/usr/bin/env node
// `npm start`: the service, compiled, run by plain node in this very process (the npm script execs it),
// so that a signal sent to `npm start`, to this process or to its process group reaches the service.
import { ensureBuilt } from './build.js';

ensureBuilt();
process.setSourceMapsEnabled(true);
await import('../dist/infrastructure/main.js');
