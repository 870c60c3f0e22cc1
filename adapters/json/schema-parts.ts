import { NON_BLANK_TEXT_PATTERN, STORABLE_TEXT_PATTERN } from '../../domain/shared/text-patterns.js';

/**
 * Builders for the schemas of the bodies the feed and the admin CLI share (the data of an event holds the fields
 * of the admin CLI's file of the same operation, read as that file is read): absent and null both mean "not given", a list given as null
 * is empty, and a text of a resume item not given is "". Every string admits no U+0000 and no unpaired
 * surrogate; lengths count code points.
 */
export type Schema = Record<string, unknown>;

const withDescription = (schema: Schema, description: string | undefined): Schema =>
  description === undefined ? schema : { ...schema, description };

/** A string that is required when its object is given. */
export const text = (maxLength: number, description?: string): Schema =>
  withDescription({ type: 'string', maxLength, pattern: STORABLE_TEXT_PATTERN }, description);

/** A string that may be absent or null. */
export const optionalText = (maxLength: number, description?: string): Schema =>
  withDescription({ type: ['string', 'null'], maxLength, pattern: STORABLE_TEXT_PATTERN }, description);

/** An identifier: a non-empty string. */
export const id = (maxLength: number, description?: string): Schema => ({ ...text(maxLength, description), minLength: 1 });

/** A name: a string with a character other than white space. */
export const name = (maxLength: number, description = 'Must hold a character other than white space.'): Schema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: NON_BLANK_TEXT_PATTERN,
  description,
});

/** A list of strings; null or absent is an empty list. */
export const texts = (maxItems: number, maxLength: number, description?: string): Schema =>
  withDescription({ type: ['array', 'null'], maxItems, items: text(maxLength) }, description);

/** A list of objects; null or absent is an empty list. */
export const objects = (maxItems: number, item: Schema, description?: string): Schema =>
  withDescription({ type: ['array', 'null'], maxItems, items: item }, description);

/** An integer in a range, or null. */
export const optionalInteger = (minimum: number, maximum: number): Schema => ({ type: ['integer', 'null'], minimum, maximum });

/** An object with these properties; fields it does not list are ignored. */
export const object = (properties: Record<string, Schema>, required: readonly string[] = [], description?: string): Schema =>
  withDescription({ type: 'object', ...(required.length > 0 ? { required: [...required] } : {}), properties }, description);
