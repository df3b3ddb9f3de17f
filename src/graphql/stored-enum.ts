// A string read from the database or a service, as one of a GraphQL enum's values: checked, never cast. A value the
// enum does not name (a row written by a newer version, a bug) fails its field with a clear error, not a guess.
export function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  const known = values.find((v) => v === value);
  if (known === undefined) throw new Error(`${what} "${value}" is not one this version knows (${values.join(', ')})`);
  return known;
}

/** An enum's values, each described (a registry's words for it), keyed by the names the values are stored as. */
export function describedValues<const N extends string>(names: readonly N[], describe: (name: N) => string): Record<N, { description: string }> {
  return Object.fromEntries(names.map((name) => [name, { description: describe(name) }])) as Record<N, { description: string }>;
}
