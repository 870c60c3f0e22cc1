import type { InboundApplication } from '../../domain/inbound-application/inbound-application.js';
import { readApplicationRequest } from '../json/application-request.js';
import { validationProblem } from './problem.js';

/**
 * The body of POST /applications as the domain's application (adapters/json reads it, as the feed reads
 * an application.submitted). A refused body is a 400 listing every problem.
 */
export function parseApplicationRequest(body: unknown): InboundApplication {
  const read = readApplicationRequest(body);
  if (!read.ok) throw validationProblem('The request body failed validation.', read.problems);
  return read.application;
}
