import { maskSecrets } from './config.schema.js';

/**
 * What a process configured by its environment alone (`npm start`, `npm run feed`) makes of its command line:
 * `--help` (or `-h`) asks for its usage; anything else is refused, so that an option such as `--port 9000`,
 * which would otherwise be ignored while the process starts on other settings, stops the start instead.
 */
export function helpAsked(args: readonly string[], command: string): boolean {
  const others = args.filter((arg) => arg !== '--help' && arg !== '-h');
  if (others.length > 0) {
    // An argument may hold a password (`--database-url postgresql://app:secret@...`): never shown.
    const shown = others.map((arg) => JSON.stringify(maskSecrets(arg.length > 60 ? `${arg.slice(0, 60)}…` : arg))).join(' ');
    throw new Error(`${command} takes no arguments but --help; its settings are environment variables (${command} -- --help). Got ${shown}.`);
  }
  return args.length > 0;
}
