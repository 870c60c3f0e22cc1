import type { ApplyPlatformEvent } from '../../application/use-cases/apply-platform-event.use-case.js';
import type { AddCandidates } from '../../application/use-cases/add-candidates.use-case.js';
import type { AuthenticateKey } from '../../application/use-cases/authenticate-key.use-case.js';
import type { AuthenticatePlatformToken } from '../../application/use-cases/authenticate-platform-token.use-case.js';
import type { CheckRenderings } from '../../application/use-cases/check-renderings.use-case.js';
import type { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import type { DeleteCandidate } from '../../application/use-cases/delete-candidate.use-case.js';
import type { DeleteVacancy } from '../../application/use-cases/delete-vacancy.use-case.js';
import type { GetCompany } from '../../application/use-cases/get-company.use-case.js';
import type { GetKey } from '../../application/use-cases/get-key.use-case.js';
import type { ImportCandidateBatch } from '../../application/use-cases/import-candidate-batch.use-case.js';
import type { ImportJobBoardResumes } from '../../application/use-cases/import-job-board-resumes.use-case.js';
import type { ImportJobBoardVacancies } from '../../application/use-cases/import-job-board-vacancies.use-case.js';
import type { IssueKey } from '../../application/use-cases/issue-key.use-case.js';
import type { IssuePlatformToken } from '../../application/use-cases/issue-platform-token.use-case.js';
import type { ListCandidates } from '../../application/use-cases/list-candidates.use-case.js';
import type { ListKeyEvents } from '../../application/use-cases/list-key-events.use-case.js';
import type { ListKeys } from '../../application/use-cases/list-keys.use-case.js';
import type { ListPlatformTokenEvents } from '../../application/use-cases/list-platform-token-events.use-case.js';
import type { ListPlatformTokens } from '../../application/use-cases/list-platform-tokens.use-case.js';
import type { ListVacancies } from '../../application/use-cases/list-vacancies.use-case.js';
import type { MoveCandidate } from '../../application/use-cases/move-candidate.use-case.js';
import type { PurgeFeedRecords } from '../../application/use-cases/purge-feed-records.use-case.js';
import type { RevokeKey } from '../../application/use-cases/revoke-key.use-case.js';
import type { RevokePlatformToken } from '../../application/use-cases/revoke-platform-token.use-case.js';
import type { RollKey } from '../../application/use-cases/roll-key.use-case.js';
import type { SetBoardColumns } from '../../application/use-cases/set-board-columns.use-case.js';
import type { SubmitApplication } from '../../application/use-cases/submit-application.use-case.js';
import type { TransferCandidate } from '../../application/use-cases/transfer-candidate.use-case.js';
import type { UpdateResume } from '../../application/use-cases/update-resume.use-case.js';
import type { UpsertVacancies } from '../../application/use-cases/upsert-vacancies.use-case.js';
import { portToken } from '../../application/ports/port-token.js';

/** One token per use case; adapters (HTTP, CLI, tests) take use cases from the container by these. */
export const USE_CASES = {
  listVacancies: portToken<ListVacancies>('UseCase.ListVacancies'),
  listCandidates: portToken<ListCandidates>('UseCase.ListCandidates'),
  submitApplication: portToken<SubmitApplication>('UseCase.SubmitApplication'),
  authenticateKey: portToken<AuthenticateKey>('UseCase.AuthenticateKey'),
  createCompany: portToken<CreateCompany>('UseCase.CreateCompany'),
  issueKey: portToken<IssueKey>('UseCase.IssueKey'),
  revokeKey: portToken<RevokeKey>('UseCase.RevokeKey'),
  listKeys: portToken<ListKeys>('UseCase.ListKeys'),
  getKey: portToken<GetKey>('UseCase.GetKey'),
  rollKey: portToken<RollKey>('UseCase.RollKey'),
  listKeyEvents: portToken<ListKeyEvents>('UseCase.ListKeyEvents'),
  getCompany: portToken<GetCompany>('UseCase.GetCompany'),
  issuePlatformToken: portToken<IssuePlatformToken>('UseCase.IssuePlatformToken'),
  revokePlatformToken: portToken<RevokePlatformToken>('UseCase.RevokePlatformToken'),
  listPlatformTokens: portToken<ListPlatformTokens>('UseCase.ListPlatformTokens'),
  listPlatformTokenEvents: portToken<ListPlatformTokenEvents>('UseCase.ListPlatformTokenEvents'),
  authenticatePlatformToken: portToken<AuthenticatePlatformToken>('UseCase.AuthenticatePlatformToken'),
  upsertVacancies: portToken<UpsertVacancies>('UseCase.UpsertVacancies'),
  deleteVacancy: portToken<DeleteVacancy>('UseCase.DeleteVacancy'),
  addCandidates: portToken<AddCandidates>('UseCase.AddCandidates'),
  moveCandidate: portToken<MoveCandidate>('UseCase.MoveCandidate'),
  transferCandidate: portToken<TransferCandidate>('UseCase.TransferCandidate'),
  deleteCandidate: portToken<DeleteCandidate>('UseCase.DeleteCandidate'),
  updateResume: portToken<UpdateResume>('UseCase.UpdateResume'),
  setBoardColumns: portToken<SetBoardColumns>('UseCase.SetBoardColumns'),
  importJobBoardVacancies: portToken<ImportJobBoardVacancies>('UseCase.ImportJobBoardVacancies'),
  importJobBoardResumes: portToken<ImportJobBoardResumes>('UseCase.ImportJobBoardResumes'),
  importCandidateBatch: portToken<ImportCandidateBatch>('UseCase.ImportCandidateBatch'),
  applyPlatformEvent: portToken<ApplyPlatformEvent>('UseCase.ApplyPlatformEvent'),
  purgeFeedRecords: portToken<PurgeFeedRecords>('UseCase.PurgeFeedRecords'),
  checkRenderings: portToken<CheckRenderings>('UseCase.CheckRenderings'),
} as const;
