// Input validation with zod, reported as VALIDATION_ERROR with `details` = [{field, message}] in REST names.
import { z } from 'zod';
import { validationError } from './errors.js';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** GraphQL/TS names are camelCase; the REST contract names fields in snake_case, so details use those. */
export function fieldName(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : snake(String(p))))
      .join('.')
      .replace(/\.\[/g, '[') || 'body'
  );
}

/** What a value is, in words ("a number", "text", "nothing"). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : 'not a number';
  if (typeof value === 'boolean') return 'true or false';
  return typeof value === 'object' ? 'an object' : typeof value;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/**
 * Zod's issues in words for the error details (`field` names what; this says what is wrong), where a schema did not
 * say it itself: "is required", "must be text (got a number)", "must be at most 100 characters". Undefined: zod's own.
 */
export function inWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${EXPECTED[issue.expected] ?? issue.expected} (got ${kindOf(issue.input)})`;
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? 'must not be empty' : `must be at least ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return n <= 1 ? 'must not be empty' : `must have at least ${n} items`;
      return issue.inclusive === false ? `must be more than ${n}` : `must be at least ${n}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${n} items`;
      return issue.inclusive === false ? `must be less than ${n}` : `must be at most ${n}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'not_multiple_of':
      return Number(issue.divisor) === 1 ? 'must be a whole number' : `must be a multiple of ${issue.divisor}`;
    case 'invalid_format':
      return issue.format === 'url'
        ? 'must be a URL'
        : issue.format === 'regex'
          ? 'is not in the expected form'
          : `must be ${issue.format === 'email' ? 'an email address' : `in ${issue.format} form`}`;
    default:
      return undefined;
  }
}

/** What is wrong with one part of an input: its field in REST names ("auth_field", "votes[0].user") and in words. */
export interface InputProblem {
  field: string;
  message: string;
}

/**
 * A zod schema's verdict on an input: its output, or its problems in words. Each unknown key of a strict object is a
 * problem of its own, named as the REST layer names it. The GraphQL input rules (graphql/input-rules.ts) and
 * parseInput both read inputs through this.
 */
export function checkInput<T extends z.ZodType>(schema: T, input: unknown): { ok: true; value: z.output<T> } | { ok: false; problems: InputProblem[] } {
  const result = schema.safeParse(input, { error: inWords });
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: issue.path.length > 0 ? `${fieldName(issue.path)}.${key}` : key, message: 'is not a known field' }))
        : [{ field: fieldName(issue.path), message: issue.message }],
    ),
  };
}

/** The input as the schema's output, or VALIDATION_ERROR naming each problem's field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const checked = checkInput(schema, input);
  if (checked.ok) return checked.value;
  throw validationError(checked.problems);
}

export const nameSchema = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/**
 * A numbered page of a list: `page` from 1, `limit` from 1 to `maxLimit` (`defaultLimit` when not given). A value
 * out of range is refused with its field's name.
 */
export function pageOf(input: { page?: number | null; limit?: number | null }, defaultLimit: number, maxLimit = 100): { page: number; limit: number } {
  const page = input.page ?? 1;
  const limit = input.limit ?? defaultLimit;
  if (!Number.isInteger(page) || page < 1) throw validationError([{ field: 'page', message: 'must be an integer of at least 1' }]);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    throw validationError([{ field: 'limit', message: `must be an integer from 1 to ${maxLimit}` }]);
  return { page, limit };
}
