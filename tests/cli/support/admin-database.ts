import type { CandidateView } from '../../../application/ports/candidate-repository.port.js';
import type { VacancyView } from '../../../application/ports/vacancy-repository.port.js';
import { ListCandidates } from '../../../application/use-cases/list-candidates.use-case.js';
import { ListVacancies } from '../../../application/use-cases/list-vacancies.use-case.js';
import type { AdminCliDependencies } from '../../../adapters/cli/admin-services.js';
import { usePostgresTestDatabase, type PostgresTestDatabase } from '../../support/postgres-test-database.js';
import { candidateViewOf, vacancyViewOf } from '../../support/listed-records.js';
import { MemoryIo } from './memory-io.js';
import { runAdmin, type AdminRun, type RunOptions } from './run-admin.js';
import { PAGE_MAX_BYTES_DEFAULT } from '../../../domain/paging/page-budget.js';

export interface AdminDatabase {
  readonly database: PostgresTestDatabase;
  /** The environment the CLI reads: this database for business data, a second one as the key registry. */
  readonly env: Record<string, string>;
  /** Runs a command as its own process, as an operator does. */
  run(args: readonly string[], options?: RunOptions): Promise<AdminRun>;
  /**
   * Runs a command inside the test process on one shared container: the same parser, use cases and
   * database, without a process start and a container build per command. For the many failure cases.
   */
  runInProcess(args: readonly string[], options?: { input?: string }): Promise<AdminRun>;
  /** What a sync client would read: every vacancy of every status, every listed candidate. */
  vacancies(companyId: string): Promise<VacancyView[]>;
  candidates(companyId: string): Promise<CandidateView[]>;
}

/**
 * A throwaway business database and a separate key registry for the describe block, as two regions'
 * deployments see them, and a way to run admin commands against them as separate processes.
 */
/**
 * The CLI and its composition root, loaded with import(). Mocha loads test files as CommonJS, while the
 * container imports the PostgreSQL module with import(): loading the CLI the same way keeps one copy of
 * the domain's classes, so that `instanceof DomainError` holds as it does in the real process.
 */
async function inProcessCli() {
  const [{ runAdminCli }, { adminCliDependencies }, { loadConfig }, { createLogger }] = await Promise.all([
    import('../../../adapters/cli/run-admin-cli.js'),
    import('../../../infrastructure/admin-cli-dependencies.js'),
    import('../../../infrastructure/config.js'),
    import('../../../infrastructure/logger.js'),
  ]);
  return { runAdminCli, adminCliDependencies, loadConfig, createLogger };
}

export function useAdminDatabase(): () => AdminDatabase {
  let shared: Promise<AdminCliDependencies> | undefined;
  // Registered before the database's own hook, so that the shared container closes before the drop.
  after(async () => {
    await (await shared)?.close();
    shared = undefined;
  });
  const database = usePostgresTestDatabase({ separateRegistry: true });
  return () => {
    const db = database();
    const env = { STORE: 'postgres', DATABASE_URL: db.businessUrl, KEYS_DATABASE_URL: db.registryUrl };
    shared ??= inProcessCli().then((cli) => cli.adminCliDependencies(cli.loadConfig(env), cli.createLogger('silent')));
    const kept = shared;
    const inProcessDeps: AdminCliDependencies = {
      open: async () => (await kept).open(),
      migrate: async () => (await kept).migrate(),
      close: async () => {},
    };
    const adapters = db.adapters();
    const listVacancies = new ListVacancies(adapters.vacancies, adapters.unitOfWork, PAGE_MAX_BYTES_DEFAULT);
    const listCandidates = new ListCandidates(adapters.candidates, adapters.unitOfWork, PAGE_MAX_BYTES_DEFAULT);
    return {
      database: db,
      env,
      run: (args, options = {}) => runAdmin(args, { ...options, env: { ...env, ...options.env } }),
      async runInProcess(args, options = {}) {
        const io = new MemoryIo(options.input ?? '');
        const status = await (await inProcessCli()).runAdminCli(args, inProcessDeps, io);
        return { status, stdout: io.stdout, stderr: io.stderr };
      },
      async vacancies(companyId) {
        const items: VacancyView[] = [];
        let cursor: string | null = null;
        do {
          const { page } = await listVacancies.execute({ companyId, since: null, status: 'all', limit: 500, cursor });
          items.push(...page.items.map(vacancyViewOf));
          cursor = page.nextCursor;
        } while (cursor !== null);
        return items;
      },
      async candidates(companyId) {
        const items: CandidateView[] = [];
        let cursor: string | null = null;
        do {
          const { page } = await listCandidates.execute({ companyId, since: null, vacancyId: null, limit: 500, cursor });
          items.push(...page.items.map(candidateViewOf));
          cursor = page.nextCursor;
        } while (cursor !== null);
        return items;
      },
    };
  };
}

/** The timestamp form of the API: milliseconds and Z, always. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const VACANCY_FIELDS = [
  'id', 'title', 'status', 'city', 'officeAddress', 'experience', 'workFormat', 'workFormats', 'salaryFrom', 'salaryTo',
  'salaryCurrency', 'salaryGross', 'employmentForm', 'workSchedule', 'skills', 'languages', 'professionalRoles', 'description',
  'responsibilities', 'positionsCount', 'sourceUrl', 'publishedAt', 'createdAt', 'updatedAt',
];

export const CANDIDATE_FIELDS = [
  'id', 'vacancyId', 'vacancyTitle', 'stage', 'source', 'externalId', 'coverLetter', 'candidate', 'resume', 'referral', 'createdAt', 'updatedAt',
];
export const PERSON_FIELDS = ['name', 'email', 'phone', 'location', 'birthDate', 'gender', 'citizenship'];
export const RESUME_FIELDS = [
  'role', 'summary', 'experienceYears', 'skills', 'skillsDescription', 'experience', 'education', 'additionalEducation', 'languages',
  'certificates', 'portfolio', 'expectedSalary', 'expectedSalaryCurrency', 'preferredWorkFormat', 'preferredEmployment', 'relocation', 'sourceUrl',
];
