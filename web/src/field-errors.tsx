// A VALIDATION_ERROR's `details` ([{field, message}], REST field names) shown beside the field each names.
import type { CombinedError } from 'urql';

export type FieldErrorMap = Record<string, string[]>;

export function fieldErrorsOf(error: CombinedError | undefined): FieldErrorMap {
  const map: FieldErrorMap = {};
  for (const e of error?.graphQLErrors ?? []) {
    const details = e.extensions?.details;
    if (e.extensions?.code === 'VALIDATION_ERROR' && Array.isArray(details)) {
      for (const d of details as { field: string; message: string }[]) (map[d.field] ??= []).push(d.message);
    } else {
      (map['*'] ??= []).push(e.message);
    }
  }
  if (error?.networkError) (map['*'] ??= []).push('The service could not be reached; nothing was changed.');
  return map;
}

/** `field` '*' shows what belongs to no one field. */
export function FieldErrors({ errors, field }: { errors: FieldErrorMap; field: string }) {
  const messages = errors[field];
  if (!messages?.length) return null;
  return (
    <p className="field-error" role="alert">
      {field === '*' ? messages.join(' ') : `${field}: ${messages.join('; ')}`}
    </p>
  );
}
