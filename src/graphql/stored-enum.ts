// A string read from the database or a service, as one of a GraphQL enum's values: checked, never cast. A value the
// enum does not name (a row written by a newer version, a bug) fails its field with a clear error, not a guess.
export function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  const known = values.find((v) => v === value);
  if (known === undefined) throw new Error(`${what} "${value}" is not one this version knows (${values.join(', ')})`);
  return known;
}
