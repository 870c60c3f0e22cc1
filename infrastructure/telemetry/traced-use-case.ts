import type { Attributes } from '@opentelemetry/api';
import { ATTRIBUTES, inSpan } from '../../adapters/telemetry/spans.js';
import { activeTracer } from './tracing.js';

type UseCase = { execute(command: never): Promise<unknown> };

/**
 * The use case as the adapters call it, each call in a span `use case <name>` under the caller's (the HTTP
 * request's): with its company id when the command names one, and its error status when it fails. Tracing
 * off, the use case itself, untouched.
 */
export function tracedUseCase<U extends UseCase>(name: string, useCase: U): Pick<U, 'execute'> {
  const tracer = activeTracer();
  if (tracer === undefined) return useCase;
  const execute = (command: Parameters<U['execute']>[0]) =>
    inSpan(tracer, `use case ${name}`, { [ATTRIBUTES.useCase]: name, ...companyOf(command) }, () => useCase.execute(command));
  return { execute } as Pick<U, 'execute'>;
}

function companyOf(command: unknown): Attributes {
  const companyId = (command as { companyId?: unknown } | null)?.companyId;
  return typeof companyId === 'string' ? { [ATTRIBUTES.companyId]: companyId } : {};
}
