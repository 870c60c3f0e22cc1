import type { ServiceKey } from '../../domain/service-key/service-key.js';
import { portToken } from './port-token.js';

/** Service keys live in the key registry, shared by both regions. */
export interface ServiceKeyRepository {
  insert(key: ServiceKey): Promise<void>;
  findById(id: string): Promise<ServiceKey | null>;
  /** Every key of the company, oldest first. */
  listByCompany(companyId: string): Promise<ServiceKey[]>;
  /** Writes revocation (and any other change of the key's own state). */
  update(key: ServiceKey): Promise<void>;
  /** Records that the key was used at this moment, unless a later use is recorded already. */
  recordUsage(keyId: string, at: Date): Promise<void>;
}

export const SERVICE_KEY_REPOSITORY = portToken<ServiceKeyRepository>('ServiceKeyRepository');
