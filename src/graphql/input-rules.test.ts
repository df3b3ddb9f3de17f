// Input rules: a zod schema as the validation plugin's standard schema (its output, or its problems named as REST
// names a body's fields, in words), and the plugin's failure as one VALIDATION_ERROR. The plugin itself, on the real
// schema, is exercised by the integration tests (auth-and-limits: access first, then the field's problem).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../base/errors.js';
import { inputRulesFailed, rule } from './input-rules.js';

const schema = z.object({
  displayName: z.string().trim().min(1, 'must not be empty').optional(),
  count: z.number().int().min(1).optional(),
  settings: z
    .object({ webhookUrl: z.string().max(5) })
    .strict()
    .optional(),
});
const validate = (value: unknown) => rule(schema)['~standard'].validate(value);

describe('rule', () => {
  it('gives the schema’s output (trimmed)', () => {
    expect(validate({ displayName: '  Ann  ', count: 2 })).toEqual({ value: { displayName: 'Ann', count: 2 } });
  });

  it('names every problem by its REST field, in words', () => {
    expect(validate({ displayName: ' ', count: 0 })).toEqual({
      issues: [
        { message: 'must not be empty', path: ['display_name'] },
        { message: 'must be at least 1', path: ['count'] },
      ],
    });
  });

  it('names an unknown key of a strict object as sent, under its field', () => {
    expect(validate({ settings: { webhookUrl: 'x', myKey: 1 } })).toEqual({ issues: [{ message: 'is not a known field', path: ['settings.myKey'] }] });
  });
});

describe('inputRulesFailed', () => {
  it('is one VALIDATION_ERROR naming each field without the argument the plugin put before it', () => {
    const error = inputRulesFailed({
      issues: [
        { message: 'must not be empty', path: ['input', 'display_name'] },
        { message: 'is required', path: ['since'] },
      ],
    });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'display_name', message: 'must not be empty' },
        { field: 'since', message: 'is required' },
      ],
    });
  });

  it('names a problem that did not come from a rule by its whole path', () => {
    expect(inputRulesFailed({ issues: [{ message: 'is wrong', path: ['votes', 0] }] })).toMatchObject({
      details: [{ field: 'votes[0]', message: 'is wrong' }],
    });
  });
});
