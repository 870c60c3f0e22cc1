import { EntitySchema } from '@mikro-orm/core';

/**
 * A row of `vacancies` as a vacancy is restored from it. String lists are jsonb: exact round trip of any
 * string, unlike text[] literals.
 */
export interface VacancyRow {
  companyId: string;
  id: string;
  title: string;
  status: string;
  city: string | null;
  officeAddress: string | null;
  experience: string | null;
  workFormat: string | null;
  workFormats: string[];
  salaryFrom: number | null;
  salaryTo: number | null;
  salaryCurrency: string | null;
  salaryGross: boolean | null;
  employmentForm: string | null;
  workSchedule: string[];
  skills: string[];
  languages: string[];
  professionalRoles: string[];
  description: string | null;
  responsibilities: string | null;
  positionsCount: number | null;
  sourceUrl: string | null;
  publishedAt: Date | null;
  recruiter: string | null;
  sourceRef: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A row as it is written: the vacancy and its rendering, the presenters' JSON of it that the list sends (ADR 18).
 * This service always writes one; the column is nullable for the rows of the previous version (ADR 18).
 */
export interface RenderedVacancyRow extends VacancyRow {
  rendering: string;
}

const text = { type: 'string', columnType: 'text' } as const;
const nullableText = { ...text, nullable: true } as const;
const list = { type: 'json', columnType: 'jsonb' } as const;

export const VacancyRowSchema = new EntitySchema<RenderedVacancyRow>({
  name: 'VacancyRow',
  tableName: 'vacancies',
  properties: {
    companyId: { ...text, primary: true },
    id: { ...text, primary: true },
    title: text,
    status: text,
    city: nullableText,
    officeAddress: nullableText,
    experience: nullableText,
    workFormat: nullableText,
    workFormats: list,
    salaryFrom: { type: 'double', columnType: 'double precision', nullable: true },
    salaryTo: { type: 'double', columnType: 'double precision', nullable: true },
    salaryCurrency: nullableText,
    salaryGross: { type: 'boolean', nullable: true },
    employmentForm: nullableText,
    workSchedule: list,
    skills: list,
    languages: list,
    professionalRoles: list,
    description: nullableText,
    responsibilities: nullableText,
    positionsCount: { type: 'integer', nullable: true },
    sourceUrl: nullableText,
    publishedAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
    recruiter: nullableText,
    sourceRef: nullableText,
    createdAt: { type: 'datetime', columnType: 'timestamptz(3)' },
    updatedAt: { type: 'datetime', columnType: 'timestamptz(3)' },
    rendering: nullableText,
  },
});
