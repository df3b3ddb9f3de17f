// Subscriptions execute each event once per distinct selection, not once per subscriber.
//
// graphql-js's subscribe() runs the operation's selection set for every event on every subscriber's stream; with a
// thousand dashboards open on one organization that is a thousand identical executions (and resolver calls) per
// vote. Here each subscriber still gets its own source stream (createSourceEventStream: its auth rules, its
// arguments, its filter), but the result for an event is computed once per group of subscribers that would get the
// same answer (same document, operation, variables, organization, key scope and plan) and shared: events are
// objects published once to every subscriber, so a WeakMap keyed by the event holds the results while the event
// is in flight.
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 1;
const resultsByEvent = new WeakMap<object, Map<string, Promise<ExecutionResult> | ExecutionResult>>();

function groupKey(args: ExecutionArgs): string | null {
  const context = args.contextValue as GraphQLContext | undefined;
  if (context?.auth.kind !== 'viewer') return null;
  let documentId = documentIds.get(args.document);
  if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
  const { organizationId, scope, plan } = context.auth.viewer;
  return JSON.stringify([documentId, args.operationName ?? null, args.variableValues ?? null, organizationId, scope, plan]);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The result for one event and group: the first subscriber to see the event executes, the others reuse it. */
export function sharedResult(args: ExecutionArgs, key: string | null, event: unknown): Promise<ExecutionResult> | ExecutionResult {
  if (key === null || typeof event !== 'object' || event === null) return execute({ ...args, rootValue: event });
  let results = resultsByEvent.get(event);
  if (!results) resultsByEvent.set(event, (results = new Map()));
  let result = results.get(key);
  if (!result) results.set(key, (result = execute({ ...args, rootValue: event })));
  return result;
}

async function subscribeShared(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source as ExecutionResult;
  const key = groupKey(args);
  const iterator = source[Symbol.asyncIterator]();
  const mapped: AsyncGenerator<ExecutionResult> = {
    async next() {
      const step = await iterator.next();
      if (step.done) return { done: true, value: undefined };
      return { done: false, value: await sharedResult(args, key, step.value) };
    },
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      if (iterator.throw) await iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  } as AsyncGenerator<ExecutionResult>;
  return mapped;
}

export function useSharedSubscriptionExecution(): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribeShared as never);
    },
  };
}
