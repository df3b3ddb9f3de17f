// An EventTarget for createPubSub that counts its listeners per event type (createPubSub's `<topic>` or
// `<topic>:<id>`), as subscriptions start listening and end: what a caller waiting for a subscriber can observe.
// It counts calls: createPubSub adds each subscription's own listener once, when the stream is first read, and
// removes it once, when the stream ends, so calls and listeners agree.
export interface CountingTarget {
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void;
  dispatchEvent(event: Event): boolean;
  /** Listeners of this event type now. */
  count(type: string): number;
}

/** Counts the listeners of `target`; `dispatch` is what publishing does (by default, `target`'s own dispatch). */
export function countingTarget(target: EventTarget, dispatch: (event: Event) => boolean = (event) => target.dispatchEvent(event)): CountingTarget {
  const counts = new Map<string, number>();
  const change = (type: string, by: number) => {
    const next = (counts.get(type) ?? 0) + by;
    if (next > 0) counts.set(type, next);
    else counts.delete(type);
  };
  return {
    addEventListener(type, listener) {
      target.addEventListener(type, listener);
      change(type, 1);
    },
    removeEventListener(type, listener) {
      target.removeEventListener(type, listener);
      change(type, -1);
    },
    dispatchEvent: dispatch,
    count: (type) => counts.get(type) ?? 0,
  };
}
