// Refuses GraphQL operations that are too deep or too large before they run (fragments expanded, cycles cut):
// the schema is a tree a few levels deep, so anything deeper or wider is abuse, not a dashboard.
import { documentNesting, MAX_DOCUMENT_NESTING } from '../json-depth.js';
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

export const MAX_DEPTH = 12;
export const MAX_FIELDS = 1_000;

export function queryLimitsRule(maxDepth = MAX_DEPTH, maxFields = MAX_FIELDS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

    function measure(set: SelectionSetNode, depth: number, seen: Set<string>, count: { fields: number }): number {
      let deepest = depth;
      for (const selection of set.selections) {
        if (count.fields > maxFields) return deepest;
        if (selection.kind === Kind.FIELD) {
          count.fields++;
          if (selection.selectionSet) deepest = Math.max(deepest, measure(selection.selectionSet, depth + 1, seen, count));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, measure(selection.selectionSet, depth, seen, count));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || seen.has(name)) continue; // unknown or cyclic: graphql's own rules report those
          deepest = Math.max(deepest, measure(fragment.selectionSet, depth, new Set([...seen, name]), count));
        }
      }
      return deepest;
    }

    return {
      OperationDefinition(node) {
        const count = { fields: 0 };
        const depth = measure(node.selectionSet, 1, new Set(), count);
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`Query is ${depth} levels deep; the limit is ${maxDepth}`, { nodes: [node], extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } } }));
        } else if (count.fields > maxFields) {
          context.reportError(new GraphQLError(`Query selects more than ${maxFields} fields`, { nodes: [node], extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } } }));
        }
      },
    };
  };
}

/**
 * graphql-js parses recursively, so a document of thousands of nested brackets would exhaust the stack before
 * any rule runs: such a document is refused before parsing (VALIDATION_ERROR).
 */
export function useDocumentNestingLimit(max = MAX_DOCUMENT_NESTING) {
  return {
    onParse({ params }: { params: { source: string | { body: string } } }) {
      const source = typeof params.source === 'string' ? params.source : params.source.body;
      const nesting = documentNesting(source, max);
      if (nesting > max) {
        throw new GraphQLError(`Document is nested more than ${max} levels deep`, { extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } } });
      }
    },
  };
}
