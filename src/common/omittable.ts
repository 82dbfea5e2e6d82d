import { ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * The field may be left out (`undefined`, absent from the JSON). Unlike class-validator's
 * `@IsOptional`, `null` is not "left out": it goes through the field's own rules and is refused
 * like any other value of the wrong type. No input field is nullable today; one that is meant to
 * be must say so in its declaration and in the contract.
 *
 * Built on `@ValidateIf`, so the JSON Schema generator still lists the field as not required.
 */
export function Omittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}
