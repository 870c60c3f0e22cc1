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
  return out;
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
