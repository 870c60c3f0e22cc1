/**
 * One thing wrong with a JSON document from outside (a request body, an event): where it is, as a JSON Pointer
 * into the document, and which rule it breaks. Never the value: documents hold personal data. Each driving
 * adapter tells it its own way (a problem+json answer, a dead letter's header).
 */
export interface JsonProblem {
  readonly pointer: string;
  readonly message: string;
}
