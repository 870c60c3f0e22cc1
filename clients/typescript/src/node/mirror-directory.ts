import { access, mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { IntegrationClient, type IntegrationClientOptions } from '../integration-client.js';
import { checkSyncAccess, type SyncOptions, type SyncPageEvent, type SyncReport } from '../sync/sync-engine.js';
import { SyncStateError } from '../sync/sync-state.js';
import type { Candidate, Vacancy } from '../types.js';
import { FileSyncStateStore } from './file-sync-state.js';
import { JsonlMirror, type MirrorChanges } from './jsonl-mirror.js';

export interface MirrorDirectoryOptions extends Pick<SyncOptions, 'fullPassEvery' | 'fullPassAfterMs' | 'full' | 'pageSize' | 'signal'> {
  /** The client to read with, or what to build one from. */
  readonly client: IntegrationClient | IntegrationClientOptions;
  readonly directory: string;
  readonly onPage?: (event: SyncPageEvent) => void | Promise<void>;
}

export interface MirrorDirectoryResult extends MirrorChanges {
  readonly vacancies: MirrorChanges;
  readonly candidates: MirrorChanges;
  readonly report: SyncReport;
}

/**
 * Mirrors a company's vacancies (every status) and candidates into `<directory>/vacancies.jsonl` and
 * `<directory>/candidates.jsonl`: one current record per id, deleted ones removed after a full or deletion pass, each
 * file replaced atomically. The sync state, journals and a lock live in `<directory>/.sync/`; a run that
 * crashed goes on where it stopped. Candidates' vacancyTitle is taken from the mirrored vacancy, since a
 * rename of a vacancy does not touch its candidates (DESIGN 3, Vacancy rename).
 */
export async function mirrorToDirectory(options: MirrorDirectoryOptions): Promise<MirrorDirectoryResult> {
  const client = options.client instanceof IntegrationClient ? options.client : new IntegrationClient(options.client);
  const work = path.join(options.directory, '.sync');
  const stateFile = path.join(work, 'state.json');
  // Before the directory is made: a key that may not read both resources leaves no file behind. Once there is a
  // state, the sync's first pages check the same before anything is written (and cost no request of their own).
  const firstRun = await access(stateFile).then(
    () => false,
    () => true,
  );
  if (firstRun) await checkSyncAccess(client, ['vacancies', 'candidates'], options.signal);
  await mkdir(work, { recursive: true });
  const unlock = await lockDirectory(path.join(work, 'lock'));
  try {
    const vacancies = await JsonlMirror.open<Vacancy>(path.join(options.directory, 'vacancies.jsonl'), { journal: path.join(work, 'vacancies.journal') });
    const candidates = await JsonlMirror.open<Candidate>(path.join(options.directory, 'candidates.jsonl'), {
      journal: path.join(work, 'candidates.journal'),
      refresh: (candidate) => {
        const vacancy = candidate.vacancyId === null ? undefined : vacancies.get(candidate.vacancyId);
        return vacancy === undefined || vacancy.title === candidate.vacancyTitle ? candidate : { ...candidate, vacancyTitle: vacancy.title };
      },
    });
    const { fullPassEvery, fullPassAfterMs, full, pageSize, signal, onPage } = options;
    const report = await client.sync({
      ...definedOnly({ fullPassEvery, fullPassAfterMs, full, pageSize, signal, onPage }),
      state: new FileSyncStateStore(stateFile),
      vacancies,
      candidates,
    });
    const [v, c] = [vacancies.changes, candidates.changes];
    return { added: v.added + c.added, changed: v.changed + c.changed, deleted: v.deleted + c.deleted, vacancies: v, candidates: c, report };
  } finally {
    await unlock();
  }
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** One sync per directory at a time. A lock whose process is gone (a crash) is taken over. */
async function lockDirectory(file: string): Promise<() => Promise<void>> {
  for (let tries = 0; tries < 3; tries++) {
    try {
      const handle = await open(file, 'wx');
      await handle.write(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new SyncStateError(`Another sync (process ${holder}) is writing to ${path.dirname(path.dirname(file))}; remove ${file} if it is gone.`);
      }
      await rm(file, { force: true });
    }
  }
  throw new SyncStateError(`Could not lock ${file}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
