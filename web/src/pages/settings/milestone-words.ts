// A milestone rule in plain words, as the rule list shows it: "Every 10 votes", "At 3, 7 and 30 day streaks",
// "Every 5 votes on Top.gg" (the rule's shape: schema.graphql, MilestoneRule).
// (.js: web/src/pages/settings/milestone-words.test.ts reads this file with Node's resolution too; the type import is erased.)
import type { MilestoneType } from '../../gql/graphql.js';

export interface RuleShape {
  type: MilestoneType;
  every?: number | null;
  at?: number[] | null;
  /** A provider's key: the total on that site only (total rules only). */
  provider?: string | null;
}

/** "3", "3 and 7", "3, 7 and 30". */
export function listOf(values: number[]): string {
  const words = values.map((v) => v.toLocaleString());
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function everyWords(type: MilestoneType, every: number): string {
  if (type === 'streak') return every === 1 ? 'Every day of a streak' : `Every ${every.toLocaleString()} days in a row`;
  return every === 1 ? 'Every vote' : `Every ${every.toLocaleString()} votes`;
}

function atWords(type: MilestoneType, at: number[]): string {
  if (type === 'streak') return at.length === 1 ? `at a ${listOf(at)} day streak` : `at ${listOf(at)} day streaks`;
  return at.length === 1 && at[0] === 1 ? 'at 1 vote' : `at ${listOf(at)} votes`;
}

/** The rule in words; `siteName` turns a provider key into the name people read (the key when none is known). */
export function ruleInWords(rule: RuleShape, siteName: (key: string) => string = (key) => key): string {
  const parts: string[] = [];
  if (rule.every != null) parts.push(everyWords(rule.type, rule.every));
  if (rule.at?.length) parts.push(atWords(rule.type, rule.at));
  if (parts.length === 0) return 'No number yet: give "every" or "at"';
  const text = parts.join(' and ');
  const site = rule.type === 'total' && rule.provider ? ` on ${siteName(rule.provider)}` : '';
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${site}`;
}
