/**
 * The token a port is bound to in the composition root. A plain symbol, so that application/ needs no
 * container library; Inversify accepts any symbol as a service identifier.
 */
export type PortToken<T> = symbol & { readonly __port?: T };

export function portToken<T>(name: string): PortToken<T> {
  return Symbol.for(name) as PortToken<T>;
}
