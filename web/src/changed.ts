// State that belongs to one server read (live arrivals counted on top of it) is dropped while rendering the new read,
// not in an effect after it: React's "adjusting some state when a prop changes"
// (https://react.dev/learn/you-might-not-need-an-effect#adjusting-some-state-when-a-prop-changes).
import { useState } from 'react';

/** True during the render in which one of `values` differs (Object.is) from the render before; false on the first. */
export function useChanged(...values: unknown[]): boolean {
  const [previous, setPrevious] = useState(values);
  const changed = values.length !== previous.length || values.some((value, i) => !Object.is(value, previous[i]));
  // Setting state while rendering makes React render again at once with `previous` equal to `values`: no loop.
  if (changed) setPrevious(values);
  return changed;
}
