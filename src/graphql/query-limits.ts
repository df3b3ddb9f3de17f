// Refuses GraphQL operations that are too deep or too large before they run (fragments expanded, cycles cut):
// the schema is a tree a few levels deep, so anything deeper or wider is abuse, not a dashboard.
import { documentNesting, MAX_DOCUMENT_NESTING } from '../base/json-depth.js';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

export const MAX_DEPTH = 12;
/**
 * Introspection (`__schema`, `__type`) walks type references (`ofType` within `ofType` …): graphql-js's standard
 * introspection query is 15 levels deep once its fragments are expanded, and other clients' (GraphiQL, Apollo,
 * codegen) are alike. Their subtrees get this bound instead, still far below what a hostile `ofType` chain needs.
 */
export const MAX_INTROSPECTION_DEPTH = 24;
export const MAX_FIELDS = 1_000;

const isIntrospection = (name: string) => name.startsWith('__') && name !== '__typename';

export function queryLimitsRule(maxDepth = MAX_DEPTH, maxFields = MAX_FIELDS, maxIntrospectionDepth = MAX_INTROSPECTION_DEPTH) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

    /** The deepest selection under `set`: over the schema's own fields, and inside introspection subtrees. */
    interface Depths {
      schema: number;
      introspection: number;
    }
    function measure(set: SelectionSetNode, depth: number, inIntrospection: boolean, seen: Set<string>, count: { fields: number }): Depths {
      const deepest: Depths = { schema: inIntrospection ? 0 : depth, introspection: inIntrospection ? depth : 0 };
      const merge = (d: Depths) => {
        deepest.schema = Math.max(deepest.schema, d.schema);
        deepest.introspection = Math.max(deepest.introspection, d.introspection);
      };
      for (const selection of set.selections) {
        if (count.fields > maxFields) return deepest;
        if (selection.kind === Kind.FIELD) {
          count.fields++;
          const into = inIntrospection || isIntrospection(selection.name.value);
          if (selection.selectionSet) merge(measure(selection.selectionSet, depth + 1, into, seen, count));
          else merge({ schema: into ? 0 : depth, introspection: into ? depth : 0 });
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          merge(measure(selection.selectionSet, depth, inIntrospection, seen, count));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || seen.has(name)) continue; // unknown or cyclic: graphql's own rules report those
          merge(measure(fragment.selectionSet, depth, inIntrospection, new Set([...seen, name]), count));
        }
      }
      return deepest;
    }

    const refuse = (message: string, node: OperationDefinitionNode) =>
      context.reportError(new GraphQLError(message, { nodes: [node], extensions: { code: 'VALIDATION_ERROR' } }));

    return {
      OperationDefinition(node) {
        const count = { fields: 0 };
        const depth = measure(node.selectionSet, 1, false, new Set(), count);
        if (depth.schema > maxDepth) refuse(`Query is ${depth.schema} levels deep; the limit is ${maxDepth}`, node);
        else if (depth.introspection > maxIntrospectionDepth)
          refuse(`Introspection is ${depth.introspection} levels deep; the limit is ${maxIntrospectionDepth}`, node);
        else if (count.fields > maxFields) refuse(`Query selects more than ${maxFields} fields`, node);
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
        throw new GraphQLError(`Document is nested more than ${max} levels deep`, { extensions: { code: 'VALIDATION_ERROR' } });
      }
    },
  };
}
