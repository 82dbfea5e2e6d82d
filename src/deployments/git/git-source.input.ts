import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { HostKeyFingerprint } from '../deployment-fields.js';
import { MAX_REPOSITORY_LENGTH } from './git-repository.js';
import { PreviewSettingsInput } from './preview-settings.input.js';

export class GitRefRuleInput {
  @IsIn(['branch', 'tag'])
  kind!: 'branch' | 'tag';

  /** Glob over the branch or tag name, e.g. `main`, `release/*`, `v*`. */
  @IsString()
  @Matches(/^[A-Za-z0-9._/*-]{1,128}$/, {
    message: 'pattern is letters, digits, . _ / - and * (1-128)',
  })
  pattern!: string;

  @IsIn(['deploy', 'approval', 'ignore'])
  action!: 'deploy' | 'approval' | 'ignore';
}

/** A path inside the repository: relative, no `..`, letters, digits and `._/-`. */
const RepositoryPath = () =>
  Matches(/^(?!.*(?:^|\/)\.\.(?:\/|$))(?!\/)[A-Za-z0-9._/-]{1,200}$/, {
    message: ({ property }) => `${property} is a relative path inside the repository, no ..`,
  });

export class SetServiceGitSourceInput {
  @IsUUID()
  serviceId!: string;

  @IsString()
  @MaxLength(MAX_REPOSITORY_LENGTH)
  repository!: string;

  /** Required over SSH: the repository host's key, as `scanServerHostKey` reports it. */
  @Omittable()
  @HostKeyFingerprint()
  hostKeyFingerprint?: string;

  /** Over HTTPS: an access token with read access, stored sealed and never returned. */
  @Omittable()
  @IsString()
  @MinLength(8)
  @MaxLength(512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'token is printable characters without spaces' })
  token?: string;

  /** The user name the token is presented under (default `git`). */
  @Omittable()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'tokenUsername is letters, digits, . _ -' })
  tokenUsername?: string;

  /** Which pushes deploy; none given: nothing deploys until rules are set. */
  @Omittable()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => GitRefRuleInput)
  rules?: GitRefRuleInput[];

  /** The build context inside the repository (default `.`). */
  @Omittable()
  @RepositoryPath()
  contextPath?: string;

  /** The Dockerfile inside the context (default `Dockerfile`). */
  @Omittable()
  @RepositoryPath()
  dockerfile?: string;

  /**
   * A compose file in the repository (e.g. `compose.yaml`) that each commit's deployment runs,
   * as it is at that commit, instead of the service's compose definition; a pull request's
   * preview runs its own. Checked and judged by the server's policy when it is read.
   */
  @Omittable()
  @RepositoryPath()
  composeFile?: string;

  /** An SSH source that has a deploy key gets a new one (the old one stops working). */
  @Omittable()
  @IsBoolean()
  rotateDeployKey?: boolean;

  /** A new webhook secret (the provider's hook must be given it; the old one stops working). */
  @Omittable()
  @IsBoolean()
  rotateWebhookSecret?: boolean;

  /** A registered server that builds the commits (default: the service's own server). */
  @Omittable()
  @IsUUID()
  buildServerId?: string;

  /**
   * Push each built image to the service's image repository (the build server's docker must be
   * logged in to it), for the service's server to pull; otherwise a build server's image is
   * copied to the service's server.
   */
  @Omittable()
  @IsBoolean()
  pushImage?: boolean;

  /**
   * Report each deployment of a commit to the provider as a commit status, with this API token
   * (stored sealed, never returned): GitHub statuses, GitLab commit statuses, Gitea statuses.
   */
  @Omittable()
  @IsIn(['github', 'gitlab', 'gitea'])
  statusProvider?: 'github' | 'gitlab' | 'gitea';

  /** The provider's API base (default `https://api.github.com`, `https://gitlab.com/api/v4`). */
  @Omittable()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'statusApiUrl is an http(s) URL' },
  )
  @MaxLength(300)
  statusApiUrl?: string;

  @Omittable()
  @IsString()
  @MinLength(8)
  @MaxLength(512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'statusToken is printable characters without spaces' })
  statusToken?: string;

  /** Preview environments for pull requests (replaced whole; absent: none). */
  @Omittable()
  @ValidateNested()
  @Type(() => PreviewSettingsInput)
  previews?: PreviewSettingsInput;
}
