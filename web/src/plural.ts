// Counts in words: "1 vote", "2 votes", "1,204 refused requests". English plurals; an irregular one is passed in.

/** `count` with its noun, singular for exactly one: plural(1, 'vote') → "1 vote"; plural(3, 'entry', 'entries'). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** The noun alone, for sentences that place the number themselves: noun(2, 'attempt') → "attempts". */
export function noun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}
