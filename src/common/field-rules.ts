import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { CONTROL_CHARACTER_SET } from './control-characters.js';
import { Omittable } from './omittable.js';

/**
 * Several decorators applied as one, so that each shape of input field is declared once. They
 * run last to first, as the same decorators stacked on a property would (the contract generator
 * merges their schemas in that order).
 */
export function field(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => [...decorators].reverse().forEach((decorate) => decorate(target, key));
}

/**
 * A list of nested inputs, each validated as an instance of `of()`'s class: at most `max` of
 * them, and at least `min` where one is given.
 */
export function NestedList(
  of: () => new () => object,
  { min, max }: { min?: number; max: number },
): PropertyDecorator {
  return field(
    IsArray(),
    ...(min === undefined ? [] : [ArrayMinSize(min)]),
    ArrayMaxSize(max),
    ValidateNested({ each: true }),
    Type(of),
  );
}

/** One line with none of the control characters (see control-characters.ts). */
const PRINTABLE_LINE = new RegExp(`^[^${CONTROL_CHARACTER_SET}]*$`, 'u');

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * A name people choose and others read (user, agent, token): trimmed, 1-80 characters, one line
 * without control or bidi characters.
 */
export function DisplayName(): PropertyDecorator {
  return field(
    Transform(trim),
    IsString(),
    MinLength(1),
    MaxLength(80),
    Matches(PRINTABLE_LINE, {
      message: ({ property }) => `${property} must not contain control or bidi characters`,
    }),
  );
}

/** How many items a page holds: optional, 1 to `max`. */
export function PageLimit(max: number): PropertyDecorator {
  return field(Omittable(), IsInt(), Min(1), Max(max));
}

/** Where the next page starts: the opaque `nextCursor` of the page before, optional. */
export function PageCursor(): PropertyDecorator {
  return field(Omittable(), IsString(), MaxLength(1024));
}

/**
 * A string `problem` finds nothing wrong with: `problem` answers why a value is refused (the
 * message, after the field's name) or null.
 */
export function WithoutProblem(name: string, problem: (value: string) => string | null) {
  return (): PropertyDecorator => (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && problem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${typeof args.value === 'string' ? problem(args.value) : 'must be a string'}`,
      },
    });
}
