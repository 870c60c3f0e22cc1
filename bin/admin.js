#!/usr/bin/env node
// The package's bin (`integration-admin <command>`) and `npm run admin -- <command>`: the admin CLI, compiled
// into dist/ (built first when dist/ is missing or older than the sources), run in this process.
import { ensureBuilt } from './build.js';

ensureBuilt({ quiet: !process.stderr.isTTY });
process.setSourceMapsEnabled(true);
await import('../dist/infrastructure/admin-cli.js');
