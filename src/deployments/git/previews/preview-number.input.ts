import { IsInt, IsUUID, Matches, Max, Min } from 'class-validator';

/** One pull request's preview of a service. */
export class PreviewNumberInput {
  @IsUUID()
  serviceId!: string;

  /** The pull (merge) request's number. */
  @IsInt()
  @Min(1)
  @Max(999_999_999)
  number!: number;
}

/** A fork's pull request to approve, at the commit the person approving looked at. */
export class ApprovePreviewInput extends PreviewNumberInput {
  /** The full head commit (SHA-1 or SHA-256) as reviewed; a push since is refused (409). */
  @Matches(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, {
    message: 'headCommit is the full commit id, 40 or 64 lower-case hex digits',
  })
  headCommit!: string;
}
