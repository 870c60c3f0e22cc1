import { setFlagsFromString } from 'node:v8';

// V8 lets the old generation grow to four times what survived the last full collection when collecting is
// cheap, and a sync's pages, promoted while in flight, fill it with garbage meanwhile: RSS peaked at 235-270 MB
// during a sync of 100,000 cards with 35 MB live. Twice what survived (--heap-growing-percent=100) kept it at
// 172-177 MB, for a few percent more CPU under 32 connections (ADR 18, bench/README.md). Set by the service's
// process itself, so that `node dist/infrastructure/main.js` gets it as `npm start` does; a
// `--heap-growing-percent` given to node itself wins. A module of its own, imported first by main.ts: ES
// modules run their imports before their own body, so this runs before the rest of the service loads.
if (!process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) {
  setFlagsFromString('--heap-growing-percent=100');
}
