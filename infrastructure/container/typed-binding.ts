import type { Bind, BindToFluentSyntax, ResolutionContext } from 'inversify';
import type { PortToken } from '../../application/ports/port-token.js';

/** Binds a port token with the port's type, so that the factory is checked against the port. */
export function bindPort<T>(bind: Bind, token: PortToken<T>): BindToFluentSyntax<T> {
  return bind<T>(token);
}

/** Resolves a port token with the port's type. */
export function resolve<T>(context: Pick<ResolutionContext, 'get'>, token: PortToken<T>): T {
  return context.get<T>(token);
}
