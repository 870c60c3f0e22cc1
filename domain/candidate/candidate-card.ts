import { MANUAL_SOURCE, SOURCE_MAX_LENGTH, COVER_LETTER_MAX_LENGTH, EXTERNAL_ID_MAX_LENGTH } from '../inbound-application/application-limits.js';
import { ConflictError, ProblemCollector } from '../shared/domain-error.js';
import { checkText, sameData } from '../shared/text-rules.js';
import { copyDate, laterOf } from '../shared/time.js';
import { checkPerson, checkReferral, checkResume } from './candidate-rules.js';
import { copyPerson, type Person, type Referral } from './person.js';
import { copyResume, type Resume } from './resume.js';

/** One application of one person to one vacancy, with its resume (spec 2.2). */
export interface CandidateCardSnapshot {
  readonly id: string;
  readonly companyId: string;
  readonly vacancyId: string | null;
  readonly stage: string | null;
  readonly source: string;
  readonly externalId: string | null;
  readonly coverLetter: string | null;
  readonly person: Person;
  readonly resume: Resume;
  readonly referral: Referral | null;
  /** A technical card, made when a card is transferred to another vacancy; never listed (spec 2.6.2). */
  readonly technical: boolean;
  /** For a technical card, the card it was transferred from. */
  readonly originCardId: string | null;
  /** Fingerprint of the canonical request body of an application, to tell a replay from a reused externalId. */
  readonly requestFingerprint: string | null;
  /** Where an imported card came from, as `<source>:<board id>`. */
  readonly sourceRef: string | null;
  readonly createdAt: Date;
  readonly cardUpdatedAt: Date;
  readonly resumeUpdatedAt: Date;
}

export interface NewCardParams {
  readonly id: string;
  readonly companyId: string;
  readonly vacancyId: string;
  readonly stage: string;
  readonly person: Person;
  readonly resume: Resume;
  readonly referral: Referral | null;
  readonly now: Date;
}

export class CandidateCard {
  private constructor(private state: CandidateCardSnapshot) {}

  /** A card made from an application sent through the API (spec 4.3). */
  static fromApplication(
    params: NewCardParams & { externalId: string; source: string; coverLetter: string | null; requestFingerprint: string },
  ): CandidateCard {
    const problems = new ProblemCollector();
    checkText(problems, '/externalId', params.externalId, { min: 1, max: EXTERNAL_ID_MAX_LENGTH, required: true });
    checkText(problems, '/source', params.source, { min: 1, max: SOURCE_MAX_LENGTH, required: true });
    checkText(problems, '/coverLetter', params.coverLetter, { max: COVER_LETTER_MAX_LENGTH });
    return CandidateCard.make(params, problems, {
      source: params.source,
      externalId: params.externalId,
      coverLetter: params.coverLetter,
      requestFingerprint: params.requestFingerprint,
      sourceRef: null,
    });
  }

  /** A card a recruiter made by hand. */
  static manual(params: NewCardParams): CandidateCard {
    return CandidateCard.make(params, new ProblemCollector(), {
      source: MANUAL_SOURCE, externalId: null, coverLetter: null, requestFingerprint: null, sourceRef: null,
    });
  }

  /** A card imported from the job board: no cover letter, no externalId (spec 2.2). */
  static imported(params: NewCardParams & { source: string; sourceRef: string }): CandidateCard {
    return CandidateCard.make(params, new ProblemCollector(), {
      source: params.source, externalId: null, coverLetter: null, requestFingerprint: null, sourceRef: params.sourceRef,
    });
  }

  private static make(
    params: NewCardParams,
    problems: ProblemCollector,
    origin: Pick<CandidateCardSnapshot, 'source' | 'externalId' | 'coverLetter' | 'requestFingerprint' | 'sourceRef'>,
  ): CandidateCard {
    checkPerson(problems, '/candidate', params.person);
    checkResume(problems, '/resume', params.resume);
    checkReferral(problems, '/referral', params.referral);
    problems.throwIfAny('The candidate is invalid.');
    return new CandidateCard({
      ...origin,
      id: params.id,
      companyId: params.companyId,
      vacancyId: params.vacancyId,
      stage: params.stage,
      person: copyPerson(params.person),
      resume: copyResume(params.resume),
      referral: params.referral === null ? null : { ...params.referral },
      technical: false,
      originCardId: null,
      createdAt: copyDate(params.now),
      cardUpdatedAt: copyDate(params.now),
      resumeUpdatedAt: copyDate(params.now),
    });
  }

  static restore(snapshot: CandidateCardSnapshot): CandidateCard {
    return new CandidateCard(copyCardSnapshot(snapshot));
  }

  get id(): string {
    return this.state.id;
  }

  get companyId(): string {
    return this.state.companyId;
  }

  get vacancyId(): string | null {
    return this.state.vacancyId;
  }

  get stage(): string | null {
    return this.state.stage;
  }

  get technical(): boolean {
    return this.state.technical;
  }

  get requestFingerprint(): string | null {
    return this.state.requestFingerprint;
  }

  /** The client's own id of an application's card; null for cards made on the platform or imported. */
  get externalId(): string | null {
    return this.state.externalId;
  }

  /** The later of the card's and the resume's modification times: what `since` and the list order use. */
  get modifiedAt(): Date {
    return laterOf(this.state.cardUpdatedAt, this.state.resumeUpdatedAt);
  }

  /** Moves the card to another column of its board. The caller checks that the column exists. */
  moveTo(stage: string, now: Date): boolean {
    if (this.state.vacancyId === null) throw new ConflictError(`Candidate ${this.state.id} has no vacancy (it was deleted), so it has no board to move on.`);
    if (this.state.stage === stage) return false;
    this.state = { ...this.state, stage, cardUpdatedAt: copyDate(now) };
    return true;
  }

  /** Replaces the resume. Only the resume's modification time moves (spec 8, sync rule 3). */
  replaceResume(resume: Resume, now: Date): boolean {
    const problems = new ProblemCollector();
    checkResume(problems, '', resume);
    problems.throwIfAny('The resume is invalid.');
    if (sameData(this.state.resume, resume)) return false;
    this.state = { ...this.state, resume: copyResume(resume), resumeUpdatedAt: copyDate(now) };
    return true;
  }

  /** Re-import of a board record: the person's data and resume are the board's latest. */
  refreshImported(person: Person, resume: Resume, now: Date): boolean {
    const problems = new ProblemCollector();
    checkPerson(problems, '/candidate', person);
    problems.throwIfAny('The candidate is invalid.');
    let changed = false;
    if (!sameData(this.state.person, person)) {
      this.state = { ...this.state, person: copyPerson(person), cardUpdatedAt: copyDate(now) };
      changed = true;
    }
    return this.replaceResume(resume, now) || changed;
  }

  /** The vacancy was deleted: the card stays, without a vacancy (DESIGN 3, Deletion). */
  detachFromVacancy(now: Date): void {
    this.state = { ...this.state, vacancyId: null, stage: null, cardUpdatedAt: copyDate(now) };
  }

  /** The technical card that a transfer to another vacancy leaves there. */
  technicalCopy(params: { id: string; vacancyId: string; stage: string; now: Date }): CandidateCard {
    if (this.state.technical) throw new ConflictError(`Candidate ${this.state.id} is a technical transfer card; act on the original card instead.`);
    return new CandidateCard({
      ...copyCardSnapshot(this.state),
      id: params.id,
      vacancyId: params.vacancyId,
      stage: params.stage,
      externalId: null,
      requestFingerprint: null,
      sourceRef: null,
      technical: true,
      originCardId: this.state.id,
      createdAt: copyDate(params.now),
      cardUpdatedAt: copyDate(params.now),
      resumeUpdatedAt: copyDate(params.now),
    });
  }

  toSnapshot(): CandidateCardSnapshot {
    return copyCardSnapshot(this.state);
  }
}

export function copyCardSnapshot(s: CandidateCardSnapshot): CandidateCardSnapshot {
  return {
    ...s,
    person: copyPerson(s.person),
    resume: copyResume(s.resume),
    referral: s.referral === null ? null : { ...s.referral },
    createdAt: copyDate(s.createdAt),
    cardUpdatedAt: copyDate(s.cardUpdatedAt),
    resumeUpdatedAt: copyDate(s.resumeUpdatedAt),
  };
}
