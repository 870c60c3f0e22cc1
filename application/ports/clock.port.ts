import { portToken } from './port-token.js';

export interface Clock {
  now(): Date;
}

export const CLOCK = portToken<Clock>('Clock');
