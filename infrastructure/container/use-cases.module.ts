import { ContainerModule, type ResolutionContext } from 'inversify';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import { CANDIDATE_REPOSITORY } from '../../application/ports/candidate-repository.port.js';
import { FEED_LEDGER } from '../../application/ports/feed-ledger.port.js';
import { CLOCK } from '../../application/ports/clock.port.js';
import { COMPANY_REPOSITORY } from '../../application/ports/company-repository.port.js';
import { ID_GENERATOR } from '../../application/ports/id-generator.port.js';
import { PLATFORM_TOKEN_REPOSITORY } from '../../application/ports/platform-token-repository.port.js';
import { RENDERING_CHECK } from '../../application/ports/rendering-check.port.js';
import { SECRETS } from '../../application/ports/secrets.port.js';
import { SERVICE_KEY_REPOSITORY } from '../../application/ports/service-key-repository.port.js';
import { UNIT_OF_WORK } from '../../application/ports/unit-of-work.port.js';
import { VACANCY_REPOSITORY } from '../../application/ports/vacancy-repository.port.js';
import { ApplyPlatformEvent } from '../../application/use-cases/apply-platform-event.use-case.js';
import { feedHandlerTable } from '../../application/use-cases/feed/feed-handler-table.js';
import { AddCandidates } from '../../application/use-cases/add-candidates.use-case.js';
import { AuthenticateKey } from '../../application/use-cases/authenticate-key.use-case.js';
import { AuthenticatePlatformToken } from '../../application/use-cases/authenticate-platform-token.use-case.js';
import { CheckRenderings } from '../../application/use-cases/check-renderings.use-case.js';
import { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import { DeleteCandidate } from '../../application/use-cases/delete-candidate.use-case.js';
import { DeleteVacancy } from '../../application/use-cases/delete-vacancy.use-case.js';
import { GetCompany } from '../../application/use-cases/get-company.use-case.js';
import { GetKey } from '../../application/use-cases/get-key.use-case.js';
import { ImportCandidateBatch } from '../../application/use-cases/import-candidate-batch.use-case.js';
import { ImportJobBoardResumes } from '../../application/use-cases/import-job-board-resumes.use-case.js';
import { ImportJobBoardVacancies } from '../../application/use-cases/import-job-board-vacancies.use-case.js';
import { IssueKey } from '../../application/use-cases/issue-key.use-case.js';
import { IssuePlatformToken } from '../../application/use-cases/issue-platform-token.use-case.js';
import { ListCandidates } from '../../application/use-cases/list-candidates.use-case.js';
import { ListKeyEvents } from '../../application/use-cases/list-key-events.use-case.js';
import { ListKeys } from '../../application/use-cases/list-keys.use-case.js';
import { ListPlatformTokenEvents } from '../../application/use-cases/list-platform-token-events.use-case.js';
import { ListPlatformTokens } from '../../application/use-cases/list-platform-tokens.use-case.js';
import { ListVacancies } from '../../application/use-cases/list-vacancies.use-case.js';
import { MoveCandidate } from '../../application/use-cases/move-candidate.use-case.js';
import { PurgeFeedRecords } from '../../application/use-cases/purge-feed-records.use-case.js';
import { RevokeKey } from '../../application/use-cases/revoke-key.use-case.js';
import { RevokePlatformToken } from '../../application/use-cases/revoke-platform-token.use-case.js';
import { RollKey } from '../../application/use-cases/roll-key.use-case.js';
import { SetBoardColumns } from '../../application/use-cases/set-board-columns.use-case.js';
import { SubmitApplication } from '../../application/use-cases/submit-application.use-case.js';
import { reservedApplicationSources } from '../../domain/inbound-application/inbound-application.js';
import { TransferCandidate } from '../../application/use-cases/transfer-candidate.use-case.js';
import { UpdateResume } from '../../application/use-cases/update-resume.use-case.js';
import { UpsertVacancies } from '../../application/use-cases/upsert-vacancies.use-case.js';
import { CONFIG, LOGGER } from './infrastructure.tokens.js';
import { bindPort, resolve } from './typed-binding.js';
import { USE_CASES } from './use-case.tokens.js';

const [V, B, C, K, CO, U, I, S, T, PT] = [
  VACANCY_REPOSITORY, BOARD_REPOSITORY, CANDIDATE_REPOSITORY, SERVICE_KEY_REPOSITORY, COMPANY_REPOSITORY,
  UNIT_OF_WORK, ID_GENERATOR, SECRETS, CLOCK, PLATFORM_TOKEN_REPOSITORY,
] as const;

/** Use cases are plain classes, built by factories from the ports they name: no decorator metadata needed. */
export const useCasesModule = new ContainerModule(({ bind }) => {
  bindPort(bind, USE_CASES.listVacancies).toDynamicValue((ctx) => new ListVacancies(resolve(ctx, V), resolve(ctx, U), resolve(ctx, CONFIG).listPageMaxBytes));
  bindPort(bind, USE_CASES.listCandidates).toDynamicValue((ctx) => new ListCandidates(resolve(ctx, C), resolve(ctx, U), resolve(ctx, CONFIG).listPageMaxBytes));
  bindPort(bind, USE_CASES.submitApplication).toDynamicValue(
    (ctx) =>
      new SubmitApplication(resolve(ctx, B), resolve(ctx, C), resolve(ctx, U), resolve(ctx, I), resolve(ctx, S), {
        reservedSources: reservedApplicationSources(resolve(ctx, CONFIG).jobBoardLabel),
      }),
  );
  bindPort(bind, USE_CASES.authenticateKey).toDynamicValue((ctx) => {
    const logger = resolve(ctx, LOGGER);
    return new AuthenticateKey(resolve(ctx, K), resolve(ctx, S), resolve(ctx, I), resolve(ctx, T), {
      keyCacheTtlMs: resolve(ctx, CONFIG).keyCacheTtlMs,
      onUsageRecordFailed: (error, keyId) => logger.warn({ err: error, keyId }, 'could not record the use of a service key'),
    });
  });
  bindPort(bind, USE_CASES.createCompany).toDynamicValue((ctx) => new CreateCompany(resolve(ctx, CO), resolve(ctx, I), resolve(ctx, T)));
  bindPort(bind, USE_CASES.getCompany).toDynamicValue((ctx) => new GetCompany(resolve(ctx, CO)));
  bindPort(bind, USE_CASES.issueKey).toDynamicValue((ctx) => new IssueKey(resolve(ctx, CO), resolve(ctx, K), resolve(ctx, S), resolve(ctx, I), resolve(ctx, T)));
  // A key revoked or rolled here stops at once here; other instances learn it within KEY_CACHE_TTL_MS (ADR 6).
  const forgetKeyOf = (ctx: ResolutionContext) => {
    const authenticateKey = resolve(ctx, USE_CASES.authenticateKey);
    return (keyId: string) => authenticateKey.forget(keyId);
  };
  bindPort(bind, USE_CASES.revokeKey).toDynamicValue((ctx) => new RevokeKey(resolve(ctx, K), resolve(ctx, I), resolve(ctx, T), forgetKeyOf(ctx)));
  bindPort(bind, USE_CASES.rollKey).toDynamicValue((ctx) => new RollKey(resolve(ctx, K), resolve(ctx, S), resolve(ctx, I), resolve(ctx, T), forgetKeyOf(ctx)));
  bindPort(bind, USE_CASES.listKeys).toDynamicValue((ctx) => new ListKeys(resolve(ctx, CO), resolve(ctx, K), resolve(ctx, T)));
  bindPort(bind, USE_CASES.getKey).toDynamicValue((ctx) => new GetKey(resolve(ctx, K), resolve(ctx, T)));
  bindPort(bind, USE_CASES.listKeyEvents).toDynamicValue((ctx) => new ListKeyEvents(resolve(ctx, CO), resolve(ctx, K)));
  bindPort(bind, USE_CASES.issuePlatformToken).toDynamicValue((ctx) => new IssuePlatformToken(resolve(ctx, PT), resolve(ctx, CO), resolve(ctx, S), resolve(ctx, I), resolve(ctx, T)));
  bindPort(bind, USE_CASES.revokePlatformToken).toDynamicValue((ctx) => new RevokePlatformToken(resolve(ctx, PT), resolve(ctx, I), resolve(ctx, T)));
  bindPort(bind, USE_CASES.listPlatformTokenEvents).toDynamicValue((ctx) => new ListPlatformTokenEvents(resolve(ctx, PT)));
  bindPort(bind, USE_CASES.listPlatformTokens).toDynamicValue((ctx) => new ListPlatformTokens(resolve(ctx, PT)));
  bindPort(bind, USE_CASES.authenticatePlatformToken).toDynamicValue((ctx) => new AuthenticatePlatformToken(resolve(ctx, PT), resolve(ctx, S), resolve(ctx, T)));
  bindPort(bind, USE_CASES.upsertVacancies).toDynamicValue((ctx) => new UpsertVacancies(resolve(ctx, CO), resolve(ctx, V), resolve(ctx, B), resolve(ctx, U), resolve(ctx, I)));
  bindPort(bind, USE_CASES.deleteVacancy).toDynamicValue((ctx) => new DeleteVacancy(resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U)));
  bindPort(bind, USE_CASES.addCandidates).toDynamicValue((ctx) => new AddCandidates(resolve(ctx, CO), resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U), resolve(ctx, I)));
  bindPort(bind, USE_CASES.moveCandidate).toDynamicValue((ctx) => new MoveCandidate(resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U)));
  bindPort(bind, USE_CASES.transferCandidate).toDynamicValue((ctx) => new TransferCandidate(resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U), resolve(ctx, I)));
  bindPort(bind, USE_CASES.deleteCandidate).toDynamicValue((ctx) => new DeleteCandidate(resolve(ctx, C), resolve(ctx, U)));
  bindPort(bind, USE_CASES.updateResume).toDynamicValue((ctx) => new UpdateResume(resolve(ctx, V), resolve(ctx, C), resolve(ctx, U)));
  bindPort(bind, USE_CASES.setBoardColumns).toDynamicValue((ctx) => new SetBoardColumns(resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U)));
  bindPort(bind, USE_CASES.importJobBoardVacancies).toDynamicValue((ctx) => new ImportJobBoardVacancies(resolve(ctx, CO), resolve(ctx, V), resolve(ctx, B), resolve(ctx, U), resolve(ctx, I)));
  bindPort(bind, USE_CASES.importJobBoardResumes).toDynamicValue((ctx) => new ImportJobBoardResumes(resolve(ctx, CO), resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U), resolve(ctx, I)));
  bindPort(bind, USE_CASES.importCandidateBatch).toDynamicValue((ctx) => new ImportCandidateBatch(resolve(ctx, CO), resolve(ctx, V), resolve(ctx, B), resolve(ctx, C), resolve(ctx, U), resolve(ctx, I), resolve(ctx, S)));
  bindPort(bind, USE_CASES.applyPlatformEvent).toDynamicValue(
    (ctx) =>
      new ApplyPlatformEvent(resolve(ctx, CO), resolve(ctx, C), resolve(ctx, FEED_LEDGER), resolve(ctx, U), feedHandlerTable({ vacancies: resolve(ctx, V), boards: resolve(ctx, B), candidates: resolve(ctx, C), useCases: {
        upsertVacancies: resolve(ctx, USE_CASES.upsertVacancies),
        setBoardColumns: resolve(ctx, USE_CASES.setBoardColumns),
        moveCandidate: resolve(ctx, USE_CASES.moveCandidate),
        transferCandidate: resolve(ctx, USE_CASES.transferCandidate),
        updateResume: resolve(ctx, USE_CASES.updateResume),
        deleteCandidate: resolve(ctx, USE_CASES.deleteCandidate),
        submitApplication: resolve(ctx, USE_CASES.submitApplication),
      } })),
  );
  bindPort(bind, USE_CASES.purgeFeedRecords).toDynamicValue((ctx) => new PurgeFeedRecords(resolve(ctx, FEED_LEDGER), resolve(ctx, T)));
  // Only PostgreSQL binds RENDERING_CHECK (the in-memory store renders at read time): the factory runs when the
  // use case is first resolved, so a memory container builds, and only resolving this use case there fails.
  bindPort(bind, USE_CASES.checkRenderings).toDynamicValue((ctx) => new CheckRenderings(resolve(ctx, RENDERING_CHECK)));
});
