// Input rules: a zod schema as the validation plugin's standard schema (its output, or its problems named as REST
// names a body's fields, in words), and the plugin's failure as one VALIDATION_ERROR. The plugin itself, on the real
// schema, is exercised by the integration tests (auth-and-limits: access first, then the field's problem).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StandardSchemaV1 } from '@pothos/plugin-validation';
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
    expect(validate({ displayName: ' ', count: 0 })).toMatchObject({
      issues: [
        { message: 'must not be empty', path: ['display_name'] },
        { message: 'must be at least 1', path: ['count'] },
      ],
    });
  });

  it('names an unknown key of a strict object as sent, under its field', () => {
    expect(validate({ settings: { webhookUrl: 'x', myKey: 1 } })).toMatchObject({ issues: [{ message: 'is not a known field', path: ['settings.myKey'] }] });
  });
});

describe('inputRulesFailed', () => {
  /** An issue as the plugin hands it on: the rule's own, with the argument's name put before its path. */
  const underArgument = (argument: string | null, issue: StandardSchemaV1.Issue): StandardSchemaV1.Issue =>
    Object.create(issue, { path: { value: [...(argument ? [argument] : []), ...(issue.path ?? [])], enumerable: true } });
  const issuesOf = (value: unknown) => {
    const result = validate(value);
    if (!('issues' in result) || !result.issues) throw new Error('expected issues');
    return result.issues;
  };

  it('is one VALIDATION_ERROR naming each field as rule() named it, without the argument before it', () => {
    const issues = issuesOf({ displayName: ' ', settings: { webhookUrl: 'too long', myKey: 1 } });
    const error = inputRulesFailed({ issues: issues.map((issue) => underArgument('input', issue)) });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'display_name', message: 'must not be empty' },
        { field: 'settings.webhook_url', message: 'must be at most 5 characters' },
        { field: 'settings.myKey', message: 'is not a known field' },
      ],
    });
    // On all of a field's arguments, the plugin puts nothing before them.
    expect(inputRulesFailed({ issues: issuesOf({ count: 0 }).map((issue) => underArgument(null, issue)) })).toMatchObject({
      details: [{ field: 'count', message: 'must be at least 1' }],
    });
  });

  it('names an issue of another schema by its path, without the input argument', () => {
    expect(inputRulesFailed({ issues: [{ message: 'is wrong', path: ['input', 'votes', 0] }] })).toMatchObject({
      details: [{ field: 'votes[0]', message: 'is wrong' }],
    });
  });
});
