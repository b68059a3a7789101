import { Logger } from '@nestjs/common';
import type { Config } from '../../config';
import { AllowList } from './allow-list';
import { SecretBox } from './webhook-secrets';

/** The key of a development run without FALLOW_WEBHOOK_KEY (well known: production refuses it where deliveries are allowed). */
const DEVELOPMENT_WEBHOOK_KEY = 'fallow-development-webhook-key-not-for-production';

/**
 * The box subscription secrets are sealed in. Production needs FALLOW_WEBHOOK_KEY as soon as the operator allows
 * deliveries anywhere (the process refuses to start otherwise, as the API does without FALLOW_KEY_SECRET); with an
 * empty allow-list no subscription can be made, so there is nothing to seal.
 */
export function secretBoxOf(config: Config): SecretBox {
  if (config.webhookKey) return new SecretBox(config.webhookKey);
  if (config.webhookAllow.length) {
    if (config.production)
      throw new Error('FALLOW_WEBHOOK_KEY is required in production when FALLOW_WEBHOOK_ALLOW allows deliveries: the key webhook secrets are encrypted under (e.g. openssl rand -hex 32), the same for the API and the workers');
    new Logger('webhooks').warn('FALLOW_WEBHOOK_KEY is unset: webhook secrets are encrypted under the well-known development key');
  }
  return new SecretBox(DEVELOPMENT_WEBHOOK_KEY);
}

export function allowListOf(config: Config): AllowList {
  return new AllowList(config.webhookAllow);
}
