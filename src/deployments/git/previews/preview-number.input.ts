import { IsInt, IsUUID, Max, Min } from 'class-validator';

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
