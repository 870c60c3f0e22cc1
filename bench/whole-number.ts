import { InvalidArgumentError } from 'commander';

/** A commander option's parser: a whole number from `min` to `max`, else the option is refused naming the range. */
export function wholeNumber(min: number, max: number): (raw: string) => number {
  return (raw: string): number => {
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= min && value <= max)) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    return value;
  };
}
