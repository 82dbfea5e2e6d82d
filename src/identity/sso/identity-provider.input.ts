import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { DisplayName, NestedList, WithoutProblem } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import type { MappedRole } from '../../events/sso.events.js';
import { issuerProblem } from './issuer-url.js';

export const MAPPED_ROLES = [
  'admin',
  'operator',
  'viewer',
] as const satisfies readonly MappedRole[];

/** `[a-z0-9-]`, 1-40, starting with a letter or digit: it appears in sign-in addresses. */
export const ProviderId = () =>
  Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: ({ property }) => `${property} is 1-40 lower-case letters, digits and -`,
  });

/** An OpenID issuer: https (http only on loopback), no query, fragment or credentials. */
const IssuerUrl = WithoutProblem('issuerUrl', issuerProblem);

export class RoleRuleInput {
  /** The claim value (a group name, say) that gives the role. */
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  value!: string;

  @IsIn(MAPPED_ROLES)
  role!: MappedRole;
}

export class ConfigureIdentityProviderInput {
  @ProviderId()
  providerId!: string;

  @DisplayName()
  displayName!: string;

  @IsString()
  @MaxLength(2048)
  @IssuerUrl()
  issuer!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(/^[\x21-\x7e]+$/, { message: 'clientId is printable characters without spaces' })
  clientId!: string;

  /** Required for a new provider; left out, the configured one is kept. Stored sealed. */
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  @Matches(/^[\x21-\x7e]+$/, { message: 'clientSecret is printable characters without spaces' })
  clientSecret?: string;

  /** Verified emails of these domains may join without an invite (left out: invites only). */
  @Omittable()
  @IsArray()
  @ArrayMaxSize(50)
  @Transform(({ value }: { value: unknown }) =>
    Array.isArray(value) ? value.map((d) => (typeof d === 'string' ? d.toLowerCase() : d)) : value,
  )
  @Matches(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    each: true,
    message: 'allowedDomains holds domain names such as example.com',
  })
  allowedDomains?: string[];

  /** The claim whose values the rules match, e.g. `groups` (left out: roles are set by people). */
  @Omittable()
  @Matches(/^[A-Za-z0-9_.:/-]{1,64}$/, {
    message: 'roleClaim is 1-64 letters, digits and _ . : / -',
  })
  roleClaim?: string;

  @Omittable()
  @NestedList(() => RoleRuleInput, { max: 100 })
  roleRules?: RoleRuleInput[];

  /** The role when no rule matches; left out, people no rule matches are refused. */
  @Omittable()
  @IsIn(MAPPED_ROLES)
  defaultRole?: MappedRole;

  /** Count the provider's MFA (`amr`) toward the team MFA policy (default false). */
  @Omittable()
  @IsBoolean()
  trustProviderMfa?: boolean;

  /** Offered on the sign-in page and accepted at sign-in (default true). */
  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class ProviderIdInput {
  @ProviderId()
  providerId!: string;
}
