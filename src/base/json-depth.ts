// Bounded nesting for every JSON value the service accepts (API bodies, GraphQL variables and JSON literals,
// templates, hook bodies) and for GraphQL documents: deep input is a VALIDATION_ERROR at the door, so nothing
// later (rendering, JSON.stringify, graphql-js's recursive parser) can run out of stack. Measured without recursion.

/** The deepest nesting any JSON input may have; SECURITY.md ("Abuse limits") documents it. */
export const MAX_JSON_DEPTH = 32;

/** The deepest bracket nesting (`{`, `[`, `(`) a GraphQL document may have before it is parsed. */
export const MAX_DOCUMENT_NESTING = 64;

/**
 * True when `value` has arrays or objects nested more than `max` levels (a scalar is depth 0, `[1]` depth 1).
 * Stops as soon as the limit is passed, so a hostile value costs no more than the limit to look at.
 */
export function exceedsJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The deepest `{`/`[`/`(` nesting of a GraphQL document's source, outside strings and comments; stops counting
 * once past `max`. graphql-js parses recursively, so this runs before it.
 */
export function documentNesting(source: string, max = MAX_DOCUMENT_NESTING): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === '}' || c === ']' || c === ')') {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}
