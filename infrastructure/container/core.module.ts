import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { CLOCK, type Clock } from '../../application/ports/clock.port.js';
import { ID_GENERATOR } from '../../application/ports/id-generator.port.js';
import { SECRETS } from '../../application/ports/secrets.port.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { UuidV7IdGenerator } from '../../adapters/system/uuid-v7-id-generator.js';
import type { AppConfig } from '../config.js';
import { StopRequest } from '../stop-request.js';
import { CONFIG, LOGGER, STOP_REQUEST } from './infrastructure.tokens.js';
import { bindPort } from './typed-binding.js';

export function coreModule(config: AppConfig, logger: Logger, clock: Clock = new SystemClock()): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindPort(bind, CONFIG).toConstantValue(config);
    bindPort(bind, LOGGER).toConstantValue(logger);
    bindPort(bind, STOP_REQUEST).toConstantValue(new StopRequest());
    bindPort(bind, CLOCK).toConstantValue(clock);
    bindPort(bind, ID_GENERATOR).toConstantValue(new UuidV7IdGenerator());
    bindPort(bind, SECRETS).toConstantValue(new NodeCryptoSecrets());
  });
}
