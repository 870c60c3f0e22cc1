#!/usr/bin/env node
// The package's bin (`integration-admin <command>`): the admin CLI, in TypeScript, run through tsx
// in this process, exactly as `npm run admin -- <command>` runs it.
import { register } from 'tsx/esm/api';

register();
await import('../infrastructure/admin-cli.ts');
