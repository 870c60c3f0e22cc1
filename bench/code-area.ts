/**
 * Where a profiled function's code lives, from its script's URL or path: the npm package under node_modules,
 * node's own module (`node:…`), or the project's folder two levels deep (`adapters/persistence`; the compiled
 * service's `dist/` left out, so that it reads as its source does). For bench/profile-summary.ts (V8 profiles)
 * and bench/perf-summary.ts (perf's JIT frames).
 */
export function codeArea(url: string): string {
  if (url === '') return '(native/V8)';
  // The innermost package of a nested node_modules.
  const modules = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1);
  if (modules) return modules[1] as string;
  if (url.startsWith('node:')) return url;
  const project = /\/work\/[^/]+\/(?:main\/)?(?:dist\/)?([^/]+\/[^/]+)/.exec(url);
  return project ? (project[1] as string) : url;
}
