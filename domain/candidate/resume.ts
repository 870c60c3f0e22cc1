export interface ExperienceItem {
  readonly company: string;
  readonly role: string;
  readonly period: string;
  readonly description: string;
}

export interface EducationItem {
  readonly institution: string;
  readonly degree: string;
  readonly period: string;
}

/** A course or training beyond the main education (the spec leaves the shape open; this is ours). */
export interface AdditionalEducationItem {
  readonly institution: string;
  readonly course: string;
  readonly result: string;
  readonly period: string;
}

export interface LanguageItem {
  readonly name: string;
  readonly level: string;
}

export interface CertificateItem {
  readonly title: string;
  readonly date: string;
  readonly url: string;
}

export interface PortfolioItem {
  readonly url: string;
  readonly description: string;
}

/** The parsed resume of one application (spec 2.2, resume.*). */
export interface Resume {
  readonly role: string | null;
  readonly summary: string | null;
  readonly experienceYears: number | null;
  readonly skills: readonly string[];
  readonly skillsDescription: string | null;
  readonly experience: readonly ExperienceItem[];
  readonly education: readonly EducationItem[];
  readonly additionalEducation: readonly AdditionalEducationItem[];
  readonly languages: readonly LanguageItem[];
  readonly certificates: readonly CertificateItem[];
  readonly portfolio: readonly PortfolioItem[];
  readonly expectedSalary: number | null;
  readonly expectedSalaryCurrency: string | null;
  readonly preferredWorkFormat: readonly string[];
  readonly preferredEmployment: string | null;
  readonly relocation: string | null;
  readonly sourceUrl: string | null;
}

export function emptyResume(): Resume {
  return {
    role: null,
    summary: null,
    experienceYears: null,
    skills: [],
    skillsDescription: null,
    experience: [],
    education: [],
    additionalEducation: [],
    languages: [],
    certificates: [],
    portfolio: [],
    expectedSalary: null,
    expectedSalaryCurrency: null,
    preferredWorkFormat: [],
    preferredEmployment: null,
    relocation: null,
    sourceUrl: null,
  };
}

/** A resume with some fields given and the rest empty. */
export function resumeOf(fields: Partial<Resume>): Resume {
  return copyResume({ ...emptyResume(), ...stripUndefined(fields) });
}

export function copyResume(r: Resume): Resume {
  return {
    ...r,
    skills: [...r.skills],
    experience: r.experience.map((item) => ({ ...item })),
    education: r.education.map((item) => ({ ...item })),
    additionalEducation: r.additionalEducation.map((item) => ({ ...item })),
    languages: r.languages.map((item) => ({ ...item })),
    certificates: r.certificates.map((item) => ({ ...item })),
    portfolio: r.portfolio.map((item) => ({ ...item })),
    preferredWorkFormat: [...r.preferredWorkFormat],
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
