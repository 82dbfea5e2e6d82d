import { IsInt, IsNumber, Matches, Max, Min } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import type { RouteTls } from '../../events/deployments.events.js';
import { EnvList } from '../deployment-fields.js';
import { EnvVarInput } from '../commands/service-settings.input.js';
import { ContainerPort, DOMAIN, RoutedService, RouteTlsMode } from '../routes/route.input.js';

/** The most previews a service may be allowed at once. */
export const MAX_PREVIEWS = 20;

/**
 * How a git source's pull requests are previewed: each open pull request is built and run as a
 * service of its own on `pr-<number>.<baseDomain>`, with these variables and limits only.
 */
export class PreviewSettingsInput {
  /** A domain whose `pr-<number>.` names point to the service's server (a wildcard record). */
  @Matches(DOMAIN, { message: 'baseDomain is a lower-case DNS name such as preview.example.com' })
  baseDomain!: string;

  /** The compose service each preview's domain goes to, and the container port it listens on. */
  @RoutedService()
  service!: string;

  @ContainerPort()
  port!: number;

  /** `auto` (default): HTTPS with an ACME certificate per preview; `off`: plain HTTP. */
  @RouteTlsMode()
  tls?: RouteTls;

  /** Previews at once, those waiting for an approval included (default 3). */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(MAX_PREVIEWS)
  limit?: number;

  /** Hours after its last push that a preview is torn down (default 72, at most 30 days). */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(720)
  ttlHours?: number;

  /** The previews' variables (secret ones sealed); the service's own are never given to them. */
  @Omittable()
  @EnvList(() => EnvVarInput)
  env?: EnvVarInput[];

  /** Memory limit of each preview container, in MiB. */
  @Omittable()
  @IsInt()
  @Min(16)
  @Max(65536)
  memoryMb?: number;

  /** CPU limit of each preview container (e.g. 0.5). */
  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0.05)
  @Max(64)
  cpus?: number;
}
