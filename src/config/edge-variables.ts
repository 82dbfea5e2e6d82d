import { Transform } from 'class-transformer';
import { IsEmail, IsInt, IsUrl, Matches, Max, MaxLength, Min } from 'class-validator';
import { Omittable } from '../common/omittable.js';
import { StorageVariables } from './storage-variables.js';
import { toInt } from './variable-transforms.js';

/** `[address:]host-port:container-port`, as `docker run -p` takes it. */
const PUBLISH = /^(?:(?:\d{1,3}\.){3}\d{1,3}:)?\d{1,5}:(?:80|443)$/;

/**
 * The settings of the edge proxy Slipway runs on each server that has routes; property names are
 * the variable names. OperationsVariables extends this class.
 */
export class EdgeVariables extends StorageVariables {
  /** The Caddy 2 image the edge proxy runs (pulled by the server's Docker engine). */
  @Matches(/^[a-z0-9][a-z0-9._\-/:@]{0,254}$/, {
    message: 'SLIPWAY_EDGE_IMAGE must be an image reference',
  })
  SLIPWAY_EDGE_IMAGE = 'caddy:2';

  /**
   * Where the proxy listens on each server, comma-separated `docker run -p` mappings onto the
   * container's 80 (HTTP) and 443 (HTTPS).
   */
  @Matches(new RegExp(`^${PUBLISH.source.slice(1, -1)}(?:,${PUBLISH.source.slice(1, -1)})*$`), {
    message: 'SLIPWAY_EDGE_PUBLISH is comma-separated [address:]port:80 or [address:]port:443',
  })
  SLIPWAY_EDGE_PUBLISH = '80:80,443:443';

  /**
   * How often each server's edge proxy is checked (running, configuration as the events derive
   * it) and synced when it is not, in seconds; 0: only on changes and by hand.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  SLIPWAY_EDGE_WATCH_SECONDS = 60;

  /**
   * How long a gapless deployment waits between switching the proxy to the new containers and
   * stopping the old ones, in seconds: requests in flight to the old ones finish.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  SLIPWAY_EDGE_DRAIN_SECONDS = 10;

  /** The ACME directory the edge proxies obtain certificates from (Let's Encrypt by default). */
  @IsUrl(
    {
      protocols: ['https'],
      require_protocol: true,
      require_tld: false,
      require_valid_protocol: true,
    },
    { message: 'SLIPWAY_ACME_CA must be the https:// URL of an ACME directory' },
  )
  @MaxLength(500)
  SLIPWAY_ACME_CA = 'https://acme-v02.api.letsencrypt.org/directory';

  /**
   * A PEM file of the CA certificate(s) that sign the ACME server's own HTTPS certificate, for
   * an ACME server outside the public web's trust (an internal CA, a test CA).
   */
  @Omittable()
  @MaxLength(4096)
  SLIPWAY_ACME_CA_ROOT?: string = undefined;

  /** The contact address given to the ACME CA (expiry mail from Let's Encrypt); optional. */
  @Omittable()
  @IsEmail({}, { message: 'SLIPWAY_ACME_EMAIL must be an email address' })
  @MaxLength(254)
  SLIPWAY_ACME_EMAIL?: string = undefined;

  /** A certificate this many days or fewer from its expiry is notified (once per certificate). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(90)
  SLIPWAY_CERT_EXPIRY_WARN_DAYS = 14;
}
