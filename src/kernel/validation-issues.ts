import type { ValidationError } from 'class-validator';
import type { FieldIssue } from '../common/app-error.js';

/** Flattens class-validator's tree into one issue per failed field, with a dotted path. */
export function toFieldIssues(errors: ValidationError[], parent = ''): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      issues.push({ path, message: rewordUnknownField(message, path) });
    }
    if (error.children?.length) issues.push(...toFieldIssues(error.children, path));
  }
  return issues;
}

function rewordUnknownField(message: string, path: string): string {
  return message.startsWith('property ') && message.endsWith(' should not exist')
    ? `${path} is not a known field`
    : message;
}
