// The services' zod schemas as the Pothos validation plugin's input rules, and its failures as VALIDATION_ERROR.
//
// A rule sits on an input type that a top-level argument takes (`builder.inputType(...).validate(rule(schema))`) or
// on all of a field's arguments together (`validate: rule(schema)`). Either way its problems are named relative to
// that input, as the REST layer names a body's fields ("auth_field", not "input.authField"), and in words
// (base/validation.ts). The resolver receives the schema's output, typed from it.
import type { StandardSchemaV1 } from '@pothos/plugin-validation';
import type { z } from 'zod';
import { validationError } from '../base/errors.js';
import { checkInput, fieldName } from '../base/validation.js';

/**
 * A zod schema as a standard schema whose issues carry the REST field name as their one path segment (the plugin
 * puts the argument's name before it when the rule sits on an input type).
 */
/** Marks the issues rule() made: their one path segment is already the REST name. */
const NAMED = Symbol('vote-relay input rule');

export function rule<T extends z.ZodType>(schema: T): StandardSchemaV1<unknown, z.output<T>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'vote-relay',
      validate: (value) => {
        const checked = checkInput(schema, value);
        return checked.ok ? { value: checked.value } : { issues: checked.problems.map((p) => ({ message: p.message, path: [p.field], [NAMED]: true })) };
      },
    },
  };
}

/** The plugin's `validationError`: every problem of the input in one VALIDATION_ERROR, each with its field. */
export function inputRulesFailed(failure: StandardSchemaV1.FailureResult): Error {
  return validationError(
    failure.issues.map((issue) => {
      const path = (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));
      // rule()'s issues name the field in the last segment (the plugin put the argument's name before it); any other
      // schema's are named from their path, without the `input` argument.
      const field = NAMED in issue ? String(path.at(-1)) : fieldName(path[0] === 'input' ? path.slice(1) : path);
      return { field, message: issue.message };
    }),
  );
}
