#!/usr/bin/env node
// `npm run feed`: the platform feed's consumer, compiled, run by plain node in this very process (the npm
// script execs it), so that a signal sent to `npm run feed`, to this process or to its group reaches it.
import { ensureBuilt } from './build.js';

ensureBuilt();
process.setSourceMapsEnabled(true);
await import('../dist/infrastructure/feed-main.js');
