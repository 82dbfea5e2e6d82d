import { IsString, MaxLength, MinLength } from 'class-validator';
import { field } from '../common/field-rules.js';

/** A password being chosen (signing up, accepting an invite, resetting): 12-256 characters. */
export const NewPassword = () =>
  field(
    IsString(),
    MinLength(12, { message: ({ property }) => `${property} must be at least 12 characters` }),
    MaxLength(256),
  );

/** The secret of a one-time link or a login challenge, as it was handed out: 20-100 characters. */
export const OneTimeSecret = () => field(IsString(), MinLength(20), MaxLength(100));
