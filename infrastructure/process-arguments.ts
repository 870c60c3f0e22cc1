/**
 * What a process configured by its environment alone (`npm start`, `npm run feed`) makes of its command line:
 * `--help` (or `-h`) asks for its usage; anything else is refused, so that an option such as `--port 9000`,
 * which would otherwise be ignored while the process starts on other settings, stops the start instead.
 */
export function helpAsked(args: readonly string[], command: string): boolean {
  const others = args.filter((arg) => arg !== '--help' && arg !== '-h');
  if (others.length > 0) {
    // Only the options' names: a value may hold a password in any form (`--password x`, `--url=...://u:p@h`).
    const names = others.filter((arg) => arg.startsWith('-')).map((arg) => JSON.stringify(arg.split('=')[0]?.slice(0, 40)));
    const shown = `${others.length} argument${others.length === 1 ? '' : 's'}${names.length > 0 ? ` (options ${names.join(', ')}; values not shown)` : ' (not shown)'}`;
    throw new Error(`${command} takes no arguments but --help; its settings are environment variables (${command} -- --help). Got ${shown}.`);
  }
  return args.length > 0;
}
