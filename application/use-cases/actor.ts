import { VIA_ADMIN_CLI } from '../../domain/service-key/key-event.js';

/**
 * Who asks for a change of keys: `name` is the person (the platform's user, or 'admin-cli'), checked by the
 * domain's actor rule; `via` is the channel ('platform-token:<id>' or 'admin-cli'), set by the adapter.
 */
export interface Actor {
  readonly name: string;
  readonly via: string;
}

/** What the admin CLI does, unless told who: named after the channel, as no person is known. */
export const ADMIN_CLI_ACTOR: Actor = { name: VIA_ADMIN_CLI, via: VIA_ADMIN_CLI };

/** The admin CLI acting for `name` (--actor), or for itself. */
export function adminCliActor(name?: string): Actor {
  return name === undefined ? ADMIN_CLI_ACTOR : { name, via: ADMIN_CLI_ACTOR.via };
}
