/**
 * The broker's or the client's account of a connection failure, as a clause for our own messages: rabbitmq-client
 * names the AMQP method a refusal answers and, for a refusal at login, which answers no method, writes
 * "undefined: " in its place (`undefined: ACCESS_REFUSED - Login was refused ...`); the broker's text ends with a
 * full stop that ours would double.
 */
export function brokerErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^undefined:\s*/, '').replace(/[.\s]+$/, '');
}
