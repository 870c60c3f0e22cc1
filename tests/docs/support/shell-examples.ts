import { readFileSync } from 'node:fs';

/**
 * How a shell example is run, from the HTML comment on the line before its fence (invisible on GitHub):
 * - no comment: `run`, a command a reader types once the service runs; it must exit 0, every curl in it
 *   answered 2xx or 3xx;
 * - `<!-- example: service -->`: it starts a long-running process (the service, the portal): it runs in the
 *   background until the examples after it in the same file have run, and must be serving by then;
 * - `<!-- example: not-run REASON -->`: not run by the example runner, for the REASON given (the set-up
 *   commands that the test run itself is made of, say).
 */
export type ExampleKind = 'run' | 'service' | 'not-run';

export interface ShellExample {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly kind: ExampleKind;
  readonly reason: string | null;
  readonly script: string;
}

const FENCE = /^```(sh|bash|shell)\s*$/;
const MARK = /^<!--\s*example:\s*(run|service|not-run)\b\s*(.*?)\s*-->\s*$/;

export function shellExamplesOf(file: string, text = readFileSync(file, 'utf8')): ShellExample[] {
  const lines = text.split('\n');
  const examples: ShellExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i] as string)) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end === -1) throw new Error(`${file}:${i + 1}: a shell example that is never closed`);
    const mark = MARK.exec(lines[i - 1] ?? '');
    const kind = (mark?.[1] ?? 'run') as ExampleKind;
    const reason = mark?.[2] ? mark[2] : null;
    if (kind === 'not-run' && reason === null) throw new Error(`${file}:${i}: "example: not-run" needs a reason`);
    examples.push({ file, line: i + 1, kind, reason, script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return examples;
}
