import { ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';
import { copyDate } from '../shared/time.js';

export const COMPANY_NAME_MAX_LENGTH = 200;

export interface CompanySnapshot {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
}

/** A client company of the platform; every vacancy, candidate and key belongs to one. */
export class Company {
  private constructor(private readonly state: CompanySnapshot) {}

  static create(params: { id: string; name: string; now: Date }): Company {
    const problems = new ProblemCollector();
    checkText(problems, '/name', params.name, { min: 1, max: COMPANY_NAME_MAX_LENGTH, required: true });
    if (params.name.trim() === '') problems.add('/name', 'must not be blank');
    problems.throwIfAny('The company is invalid.');
    return new Company({ id: params.id, name: params.name, createdAt: copyDate(params.now) });
  }

  static restore(snapshot: CompanySnapshot): Company {
    return new Company({ ...snapshot, createdAt: copyDate(snapshot.createdAt) });
  }

  get id(): string {
    return this.state.id;
  }

  toSnapshot(): CompanySnapshot {
    return { ...this.state, createdAt: copyDate(this.state.createdAt) };
  }
}
