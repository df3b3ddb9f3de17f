// A delivery status as the pages show it: its name in its colour, and for one that needs it, what it means on hover.
// `uncertain` has a style of its own (amber, boxed), apart from `failed`: nothing is known to have gone wrong.
import type { ReactNode } from 'react';

/** What an uncertain delivery means, in the words of its delivery log (src/domain/jobs.ts UNCERTAIN_DELIVERY). */
export const UNCERTAIN_MEANING = 'the relay stopped while sending: the server may or may not have it';

const TITLES: Partial<Record<string, string>> = {
  uncertain: `Uncertain: ${UNCERTAIN_MEANING}. It was not sent again by itself, so nobody got it twice: check the server or ask the player, and resend it if it did not arrive.`,
};

export function Status({ value, children }: { value: string; children?: ReactNode }) {
  return (
    <span className={`status ${value}`} title={TITLES[value]}>
      {children ?? value}
    </span>
  );
}
