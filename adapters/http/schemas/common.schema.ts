import { closedObject, nullableStr, ref, str, timestamp } from './schema-helpers.js';

export const pageSchema = (itemSchemaName: string, itemsDescription: string) =>
  closedObject({
    items: { type: 'array', items: ref(itemSchemaName), description: itemsDescription },
    nextCursor: {
      ...nullableStr(),
      description: 'Null exactly on the last page. Otherwise pass it unchanged as cursor, with the same since, status, vacancyId and fields.',
    },
  });

const id = (description: string) => ({ ...str(), minLength: 1, description });

export const applicationCreatedSchema = closedObject({
  id: id('The id of the new candidate card: the id of the candidate in GET /candidates.'),
  status: { type: 'string', const: 'created' },
});

export const applicationDuplicateSchema = closedObject({
  id: id('The id of the card created by the first application with this externalId.'),
  status: { type: 'string', const: 'duplicate' },
});

/** An item of an identifier-only page (fields=id): the record's id and updatedAt, as its full item has them. */
export const listedIdSchema = closedObject({
  id: id('The id of the vacancy or candidate.'),
  updatedAt: { ...timestamp(), description: "As the full item's updatedAt: the record's place in the order." },
});
