// Reads a value from parsed JSON by a dotted path with optional `$.` prefix and `[n]` indexes
// (`user.name`, `$.data.votes[0].user`) — the votee_path and event_path syntax of the README's Inbound hooks.

const SEGMENT = /([^.[\]]+)|\[(\d+)\]/g;

// A name, then any number of `.name` or `[n]` parts; nothing else (no `..`, no leading dot, no `a[0]b`).
const WHOLE_PATH = /^[^.[\]]+(?:\.[^.[\]]+|\[\d+\])*$/;

export function parsePath(path: string): (string | number)[] | null {
  let rest = path.trim();
  if (rest.startsWith('$')) {
    rest = rest.slice(1);
    if (rest.startsWith('.')) rest = rest.slice(1);
    else if (rest !== '' && !rest.startsWith('[')) return null;
  }
  if (rest === '' || !WHOLE_PATH.test(rest.startsWith('[') ? `_${rest}` : rest)) return null;
  const segments: (string | number)[] = [];
  let consumed = 0;
  for (const match of rest.matchAll(SEGMENT)) {
    const between = rest.slice(consumed, match.index);
    if (between !== '' && between !== '.') return null;
    segments.push(match[2] !== undefined ? Number(match[2]) : match[1]);
    consumed = match.index + match[0].length;
  }
  return consumed === rest.length && segments.length > 0 ? segments : null;
}

export function isValidPath(path: string): boolean {
  return parsePath(path) !== null;
}

export function readPath(value: unknown, path: string): unknown {
  const segments = parsePath(path);
  if (!segments) return undefined;
  let current: unknown = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}

/** A scalar as text (numbers in decimal, booleans as true/false); objects and arrays as JSON; missing → undefined. */
export function readPathAsText(value: unknown, path: string): string | undefined {
  const found = readPath(value, path);
  if (found === undefined || found === null) return undefined;
  if (typeof found === 'string') return found;
  if (typeof found === 'number' || typeof found === 'bigint') return found.toString(10);
  if (typeof found === 'boolean') return String(found);
  try {
    return JSON.stringify(found);
  } catch {
    return undefined; // nested deeper than the stack allows: not a usable value
  }
}
