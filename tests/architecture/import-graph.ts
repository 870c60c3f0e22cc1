import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const LAYERS = ['domain', 'application', 'adapters', 'infrastructure'] as const;
export type Layer = (typeof LAYERS)[number];

/** What each layer may import: inner layers only (DESIGN 2), and for the two inner ones, no package at all. */
const ALLOWED: Record<Layer, { layers: readonly Layer[]; packages: boolean }> = {
  domain: { layers: ['domain'], packages: false },
  application: { layers: ['domain', 'application'], packages: false },
  adapters: { layers: ['domain', 'application', 'adapters'], packages: true },
  infrastructure: { layers: LAYERS, packages: true },
};

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(?\s*['"]([^'"]+)['"]/gm;

export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) found.push((match[1] ?? match[2]) as string);
  return found;
}

export interface Violation {
  readonly file: string;
  readonly specifier: string;
  readonly reason: string;
}

/**
 * Rooms inside adapters/ (STYLE, New driving adapters): a driving adapter stands in its own folder. The feed
 * may share the HTTP adapter's schemas (defined once, published twice), never its concepts (HttpProblem, Koa
 * body reading); what both need and is neutral to transports lives in adapters/json, which knows neither.
 * The management API is HTTP too and builds on the public adapter's transport pieces, which never know it.
 */
interface AdapterRoom {
  readonly folder: string;
  /** Folders its files may not import from... */
  readonly closed: readonly string[];
  /** ...except from these inside them. */
  readonly open: readonly string[];
  /** Packages its files may not import. */
  readonly packages: RegExp;
  readonly reason: string;
}

const KOA = /^(koa|koa-[^/]+|@koa\/.+)$/;
/** No package is closed to the room. */
const NO_PACKAGE = /(?!)/;
const KOA_OR_HTTP = /^(koa|koa-[^/]+|@koa\/.+|(node:)?(http|https|http2))$/;
/** A transport's or a store's package: Koa, Node's HTTP modules, pg, MikroORM. */
const TRANSPORT_OR_STORE = /^(koa|koa-[^/]+|@koa\/.+|(node:)?(http|https|http2)|pg|pg-[^/]+|@mikro-orm\/.+)$/;

const ADAPTER_ROOMS: readonly AdapterRoom[] = [
  {
    folder: 'adapters/feed',
    closed: ['adapters/http'],
    open: ['adapters/http/schemas'],
    packages: KOA,
    reason: 'adapters/feed/ must not import adapters/http/ other than its schemas/ (move what is neutral to adapters/json/)',
  },
  {
    folder: 'adapters/http',
    closed: ['adapters/management'],
    open: [],
    packages: NO_PACKAGE,
    reason: 'adapters/http/ must not import adapters/management/: the management API builds on the public transport, never the other way',
  },
  {
    folder: 'adapters/management',
    closed: ['application/ports', 'adapters/persistence', 'adapters/cli', 'adapters/feed'],
    open: [],
    packages: NO_PACKAGE,
    reason: 'adapters/management/ calls use cases only: no port or repository, no other driving adapter',
  },
  {
    folder: 'adapters/json',
    closed: ['adapters'],
    open: ['adapters/json'],
    packages: KOA_OR_HTTP,
    reason: 'adapters/json/ is shared by the transports and must import none of them, nor another adapter',
  },
  {
    // The store renders with them when it writes (ADR 18) and the transports when they answer, so they know
    // neither. infrastructure/ is closed to every adapter by the layers already (ALLOWED).
    folder: 'adapters/presenters',
    closed: ['adapters/persistence', 'adapters/http', 'adapters/cli', 'adapters/feed', 'adapters/management'],
    open: [],
    packages: TRANSPORT_OR_STORE,
    reason: 'adapters/presenters/ are pure presentation: no store, no transport, no driving adapter',
  },
];

const isUnder = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

function roomViolationsOf(file: string, specifiers: readonly string[]): Violation[] {
  const posixFile = file.split(path.sep).join('/');
  const out: Violation[] = [];
  for (const room of ADAPTER_ROOMS.filter((r) => isUnder(posixFile, r.folder))) {
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(posixFile), specifier));
        const closed = room.closed.some((folder) => isUnder(target, folder)) && !room.open.some((folder) => isUnder(target, folder));
        if (closed) out.push({ file, specifier, reason: room.reason });
      } else if (room.packages.test(specifier)) {
        out.push({ file, specifier, reason: room.reason });
      }
    }
  }
  return out;
}

/** The violations of one file, given its path relative to the project root and its text. */
export function violationsOf(file: string, source: string): Violation[] {
  const layer = file.split(/[\\/]/)[0] as Layer;
  const rule = ALLOWED[layer];
  if (rule === undefined) return [];
  const out: Violation[] = [];
  for (const specifier of importsOf(source)) {
    const target = specifier.startsWith('.') ? path.normalize(path.join(path.dirname(file), specifier)).split(/[\\/]/)[0] : undefined;
    // clients/ holds packages of this repository published for integrators (the TypeScript client): to the
    // layers they are packages like any other, reached by a relative path only because they live here.
    if (target !== undefined && target !== 'clients') {
      if (!rule.layers.includes(target as Layer)) out.push({ file, specifier, reason: `${layer}/ must not import ${target}/` });
    } else if (!rule.packages) {
      out.push({ file, specifier, reason: `${layer}/ must not import a package or built-in module` });
    }
  }
  return [...out, ...roomViolationsOf(file, importsOf(source))];
}

export function sourceFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  const files: string[] = [];
  for (const entry of readdirSync(full)) {
    const relative = path.join(dir, entry);
    if (statSync(path.join(root, relative)).isDirectory()) files.push(...sourceFiles(root, relative));
    else if (entry.endsWith('.ts')) files.push(relative);
  }
  return files;
}

export function projectViolations(root: string): Violation[] {
  return LAYERS.flatMap((layer) => sourceFiles(root, layer).flatMap((file) => violationsOf(file, readFileSync(path.join(root, file), 'utf8'))));
}
