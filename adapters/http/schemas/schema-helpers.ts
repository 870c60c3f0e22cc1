/** Small builders for the response schemas, so that "present, maybe null" reads the same everywhere. */
export const str = () => ({ type: 'string' });
export const nullableStr = () => ({ type: ['string', 'null'] });
export const nullableNum = () => ({ type: ['number', 'null'] });
export const strList = () => ({ type: 'array', items: { type: 'string' } });
export const timestamp = () => ({ type: 'string', format: 'date-time', description: 'UTC, millisecond precision: YYYY-MM-DDTHH:mm:ss.sssZ' });
export const nullableTimestamp = () => ({ ...timestamp(), type: ['string', 'null'] });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An object whose every property is required: the API never leaves a field out, it sends null. */
export function closedObject(properties: Record<string, object>, optional: readonly string[] = []) {
  return { type: 'object', required: Object.keys(properties).filter((key) => !optional.includes(key)), properties };
}
