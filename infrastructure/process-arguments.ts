/**
 * What a process configured by its environment alone (`npm start`, `npm run feed`) makes of its command line:
 * `--help` (or `-h`) asks for its usage; anything else is refused, so that an option such as `--port 9000`,
 * which would otherwise be ignored while the process starts on other settings, stops the start instead.
 */
export function helpAsked(args: readonly string[], command: string, settings = 'its settings are environment variables'): boolean {
  const others = args.filter((arg) => arg !== '--help' && arg !== '-h');
  if (others.length > 0) {
    // Only the options' names: a value may hold a password in any form (`--password x`, `--url=...://u:p@h`).
    const names = others.filter((arg) => arg.startsWith('-')).map((arg) => JSON.stringify(arg.split('=')[0]?.slice(0, 40)));
    const shown = `${others.length} argument${others.length === 1 ? '' : 's'}${names.length > 0 ? ` (options ${names.join(', ')}; values not shown)` : ' (not shown)'}`;
    throw new Error(`${command} takes no arguments but --help (${command} -- --help); ${settings}. Got ${shown}.`);
  }
  return args.length > 0;
}

/**
 * For a tool configured by its environment alone (the bench's ceilings, the generators): on `--help` prints its
 * usage and exits 0; any other argument is refused with exit 2, before the tool does anything.
 */
export function answerHelp(args: readonly string[], command: string, usage: string, settings?: string): void {
  let asked: boolean;
  try {
    asked = helpAsked(args, command, settings);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
  if (asked) {
    process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
    process.exit(0);
  }
}
