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

export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(
    result.error.issues.flatMap((issue) =>
      // A strict object's unknown keys: each named as a field of its own, as the REST layer names them.
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: issue.path.length > 0 ? `${fieldName(issue.path)}.${key}` : key, message: 'is not a known field' }))
        : [{ field: fieldName(issue.path), message: issue.message }],
    ),
  );
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
