/** The person behind one application (spec 2.2, candidate.*). */
export interface Person {
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly location: string | null;
  readonly birthDate: string | null;
  /** A text label, as the source gives it. */
  readonly gender: string | null;
  readonly citizenship: readonly string[];
}

/** Who recommended the person. A card is a referral exactly when this is present (spec 2.3). */
export interface Referral {
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly company: string | null;
  readonly relationship: string | null;
}

export function copyPerson(p: Person): Person {
  return { ...p, citizenship: [...p.citizenship] };
}
