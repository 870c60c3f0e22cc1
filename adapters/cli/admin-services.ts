import type { CompanyRepository } from '../../application/ports/company-repository.port.js';
import type { AddCandidates } from '../../application/use-cases/add-candidates.use-case.js';
import type { CheckRenderings } from '../../application/use-cases/check-renderings.use-case.js';
import type { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import type { DeleteCandidate } from '../../application/use-cases/delete-candidate.use-case.js';
import type { DeleteVacancy } from '../../application/use-cases/delete-vacancy.use-case.js';
import type { ImportCandidateBatch } from '../../application/use-cases/import-candidate-batch.use-case.js';
import type { ImportJobBoardResumes } from '../../application/use-cases/import-job-board-resumes.use-case.js';
import type { ImportJobBoardVacancies } from '../../application/use-cases/import-job-board-vacancies.use-case.js';
import type { IssueKey } from '../../application/use-cases/issue-key.use-case.js';
import type { IssuePlatformToken } from '../../application/use-cases/issue-platform-token.use-case.js';
import type { ListKeys } from '../../application/use-cases/list-keys.use-case.js';
import type { ListPlatformTokenEvents } from '../../application/use-cases/list-platform-token-events.use-case.js';
import type { ListPlatformTokens } from '../../application/use-cases/list-platform-tokens.use-case.js';
import type { MoveCandidate } from '../../application/use-cases/move-candidate.use-case.js';
import type { RevokeKey } from '../../application/use-cases/revoke-key.use-case.js';
import type { RevokePlatformToken } from '../../application/use-cases/revoke-platform-token.use-case.js';
import type { SetBoardColumns } from '../../application/use-cases/set-board-columns.use-case.js';
import type { TransferCandidate } from '../../application/use-cases/transfer-candidate.use-case.js';
import type { UpdateResume } from '../../application/use-cases/update-resume.use-case.js';
import type { UpsertVacancies } from '../../application/use-cases/upsert-vacancies.use-case.js';
import type { FeedAccess } from './feed-broker.js';

type UseCase<T extends { execute: unknown }> = Pick<T, 'execute'>;

/** The use cases the admin CLI drives: the same ones the HTTP adapter calls, taken from the same container. */
export interface AdminServices {
  /** To tell an unknown company apart from an unknown record in commands that take --company. */
  readonly companies: Pick<CompanyRepository, 'findById'>;
  readonly createCompany: UseCase<CreateCompany>;
  readonly issueKey: UseCase<IssueKey>;
  readonly revokeKey: UseCase<RevokeKey>;
  readonly listKeys: UseCase<ListKeys>;
  readonly issuePlatformToken: UseCase<IssuePlatformToken>;
  readonly revokePlatformToken: UseCase<RevokePlatformToken>;
  readonly listPlatformTokens: UseCase<ListPlatformTokens>;
  readonly listPlatformTokenEvents: UseCase<ListPlatformTokenEvents>;
  readonly upsertVacancies: UseCase<UpsertVacancies>;
  readonly deleteVacancy: UseCase<DeleteVacancy>;
  readonly addCandidates: UseCase<AddCandidates>;
  readonly updateResume: UseCase<UpdateResume>;
  readonly moveCandidate: UseCase<MoveCandidate>;
  readonly transferCandidate: UseCase<TransferCandidate>;
  readonly deleteCandidate: UseCase<DeleteCandidate>;
  readonly setBoardColumns: UseCase<SetBoardColumns>;
  readonly importJobBoardVacancies: UseCase<ImportJobBoardVacancies>;
  readonly importJobBoardResumes: UseCase<ImportJobBoardResumes>;
  readonly importCandidateBatch: UseCase<ImportCandidateBatch>;
  readonly checkRenderings: UseCase<CheckRenderings>;
  /** `source` of imported records (DESIGN 3, Job-board label). */
  readonly jobBoardLabel: string;
}

/**
 * What the composition root hands the CLI. Nothing is opened until a command needs it, so that `--help`
 * and usage errors never touch a database.
 */
export interface AdminCliDependencies {
  open(): Promise<AdminServices>;
  /** Brings every database schema up to date; answers what it did. */
  migrate(): Promise<unknown>;
  /**
   * The platform feed's broker, for the `feed` commands, which need no database. Absent where a command
   * runner has none (tests of other commands): the `feed` commands then fail.
   */
  readonly feed?: FeedAccess;
  /** Releases whatever open() or migrate() acquired; safe to call when neither ran. */
  close(): Promise<void>;
}
