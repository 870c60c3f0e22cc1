import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const redocly = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');

export interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Runs the real linter, with the committed redocly.yaml, on a document written to a temporary file. */
export async function lintOpenApi(document: unknown): Promise<LintReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    const run = await promisify(execFile)(process.execPath, [redocly, 'lint', '--config', path.join(root, 'redocly.yaml'), '--format=json', file], {
      cwd: dir,
      // No usage data leaves the machine, and no look-up of newer versions.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    return JSON.parse(run.stdout) as LintReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const lintSummary = (report: LintReport) => report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
