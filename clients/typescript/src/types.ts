import type { components, operations } from './openapi-types.js';

/**
 * The API's shapes, as the OpenAPI document of the service describes them (openapi-types.ts is generated
 * from it): nothing here is written by hand but the names.
 */
type Schemas = components['schemas'];

export type Vacancy = Schemas['Vacancy'];
export type VacancyStatus = Vacancy['status'];
export type Candidate = Schemas['Candidate'];
export type Person = Schemas['Person'];
export type Resume = Schemas['Resume'];
export type Referral = Schemas['Referral'];
export type VacancyPage = Schemas['VacancyPage'];
export type CandidatePage = Schemas['CandidatePage'];
/** An item of an identifier-only page (fields=id): a record's id and updatedAt. */
export type ListedId = Schemas['ListedId'];
export type IdPage = Schemas['IdPage'];
export type ApplicationRequest = Schemas['ApplicationRequest'];
export type ApplicationCreated = Schemas['ApplicationCreated'];
export type ApplicationDuplicate = Schemas['ApplicationDuplicate'];
export type ProblemItem = Schemas['ProblemItem'];

/** Every error body the API documents: one per status and code, told apart by `code`. */
export type Problem = Schemas[Extract<keyof Schemas, `${string}Problem`>];
export type ProblemCode = Problem['code'];

type QueryOf<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

/** `since` may also be given as a Date, or null for no filter; `fields` is chosen by the method (listVacancyIds, ...). */
type WithSince<Q> = Omit<Q, 'since' | 'fields'> & { since?: string | Date | null };

export type ListVacanciesQuery = WithSince<QueryOf<'listVacancies'>>;
export type ListCandidatesQuery = WithSince<QueryOf<'listCandidates'>>;
export type VacancyStatusFilter = NonNullable<QueryOf<'listVacancies'>['status']>;
