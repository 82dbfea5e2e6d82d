import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { DisplayName, NestedList, WithoutProblem } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';
import type { DrainKind, DrainSource } from '../events/drains.events.js';
import { caCertificateProblem } from './drain-endpoint.js';

export const DRAIN_KINDS = ['syslog', 'otlp'] as const satisfies readonly DrainKind[];
export const DRAIN_SOURCES = ['audit', 'deployment-logs'] as const satisfies readonly DrainSource[];

/** Headers Slipway sets itself on an OTLP request: a drain may not replace them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'connection',
  'transfer-encoding',
  'te',
  'upgrade',
]);

/** `[a-z0-9-]`, 1-40, starting with a letter or digit. */
export const DrainId = () =>
  Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: ({ property }) => `${property} is 1-40 lower-case letters, digits and -`,
  });

const CaCertificate = WithoutProblem('caCertificate', caCertificateProblem);

export class DrainHeaderInput {
  /** An HTTP header name, e.g. `authorization` or `x-api-key`. */
  @Matches(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, { message: 'name must be an HTTP header name' })
  @Matches(new RegExp(`^(?!(${[...RESERVED_HEADERS].join('|')})$)`, 'i'), {
    message: 'name is a header Slipway sets itself',
  })
  name!: string;

  /** Sent as it is; stored sealed and never shown again. */
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  @Matches(/^[\x20-\x7e]+$/, { message: 'value must be printable ASCII on one line' })
  value!: string;
}

export class ConfigureDrainInput {
  @DrainId()
  drainId!: string;

  @DisplayName()
  displayName!: string;

  @IsIn(DRAIN_KINDS)
  kind!: DrainKind;

  /** syslog: `tls://host:port`; otlp: the logs URL, e.g. `https://collector:4318/v1/logs`. */
  @IsString()
  @MaxLength(2048)
  endpoint!: string;

  /** PEM certificates to trust for the endpoint instead of the system's roots (a private CA). */
  @Omittable()
  @IsString()
  @MaxLength(32_768)
  @CaCertificate()
  caCertificate?: string;

  /**
   * OTLP only: headers sent with every request (an API key, say). Stored sealed; left out, the
   * configured ones are kept; `[]` removes them.
   */
  @Omittable()
  @NestedList(() => DrainHeaderInput, { max: 8 })
  headers?: DrainHeaderInput[];

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(DRAIN_SOURCES.length)
  @IsIn(DRAIN_SOURCES, { each: true })
  sources!: DrainSource[];

  /** Default true. A disabled drain keeps its place and ships nothing until enabled. */
  @Omittable()
  @IsBoolean()
  enabled?: boolean;

  /**
   * A new drain ships what happens from now on (`now`, the default) or the whole history first
   * (`beginning`). A drain that exists keeps its place.
   */
  @Omittable()
  @IsIn(['now', 'beginning'])
  startAt?: 'now' | 'beginning';
}

export class DrainIdInput {
  @DrainId()
  drainId!: string;
}
