import { Table } from '../table.js';

/** A row of `candidates` as a card is restored from it; person, resume and referral are jsonb documents. */
export interface CandidateRow {
  companyId: string;
  id: string;
  vacancyId: string | null;
  stage: string | null;
  source: string;
  externalId: string | null;
  coverLetter: string | null;
  person: unknown;
  resume: unknown;
  referral: unknown;
  technical: boolean;
  originCardId: string | null;
  requestFingerprint: string | null;
  sourceRef: string | null;
  createdAt: Date;
  cardUpdatedAt: Date;
  resumeUpdatedAt: Date;
}

/** What a write stores beside the row: the card's rendering (ADR 18); null for a technical card, which no list shows. */
export interface CandidateRendering {
  rendering: string | null;
}

/** The columns of `candidates` (Migration20251122000000BusinessTables and later), listed once; modified_at is generated. */
export const CANDIDATES = new Table<CandidateRow, CandidateRendering>(
  'candidates',
  {
    companyId: ['company_id', 'text'],
    id: ['id', 'text'],
    vacancyId: ['vacancy_id', 'text'],
    stage: ['stage', 'text'],
    source: ['source', 'text'],
    externalId: ['external_id', 'text'],
    coverLetter: ['cover_letter', 'text'],
    person: ['person', 'jsonb'],
    resume: ['resume', 'jsonb'],
    referral: ['referral', 'jsonb'],
    technical: ['technical', 'boolean'],
    originCardId: ['origin_card_id', 'text'],
    requestFingerprint: ['request_fingerprint', 'text'],
    sourceRef: ['source_ref', 'text'],
    createdAt: ['created_at', 'timestamptz'],
    cardUpdatedAt: ['card_updated_at', 'timestamptz'],
    resumeUpdatedAt: ['resume_updated_at', 'timestamptz'],
  },
  ['companyId', 'id'],
  { rendering: ['rendering', 'text'] },
);
