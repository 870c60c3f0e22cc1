/** One thing wrong with a request. `pointer` is a JSON Pointer into the body, or `/<name>` for a query parameter. */
export interface ProblemItem {
  readonly pointer: string;
  /** Set for query-string problems: the parameter's name. */
  readonly parameter?: string;
  readonly message: string;
}

/** The body of every error response (DESIGN 3, Error body), served as application/problem+json. */
export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly requestId: string;
  readonly errors?: readonly ProblemItem[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Problem types are URNs rather than URLs: they name the problem and stay equal across both regional
 * deployments, and no URL is promised that would have to serve documentation.
 */
export function problemType(code: string): string {
  return `urn:problem-type:integration-api:${code}`;
}

/** An error the HTTP adapter itself raises (routing, media type, body size, query, rate limit). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: readonly ProblemItem[],
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

export function validationProblem(detail: string, errors: readonly ProblemItem[]): HttpProblem {
  return new HttpProblem(400, 'validation_failed', 'Validation failed', detail, errors);
}
