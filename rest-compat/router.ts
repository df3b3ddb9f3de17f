// Mounts every /v1 route: parse and validate its document once, then per request refuse a body the route does
// not read (not JSON, or keys it does not take: rest-compat/body-fields.ts), coerce variables, execute against the
// one schema in-process, and write the interface's envelope (or the error envelope).
import express, { type Request, type Response, type Router } from 'express';
import { execute, parse, validate, type GraphQLField, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { GraphQLContext } from '../src/graphql/context.js';
import { maskUnexpected } from '../src/graphql/yoga.js';
import { AppError, toAppErrorShape, validationError } from '../src/base/errors.js';
import { checkAccess, type AccessRule } from '../src/auth/access.js';
import { sendError } from '../src/http/error-response.js';
import { unreadBody } from '../src/http/json-body.js';
import type { Logger } from '../src/base/logger.js';
import type { RestRoute } from './route.js';
import { coerceVariables } from './variables.js';
import { bodyFieldsOf, takesJsonBody, unknownBodyFields, type RouteLabel } from './body-fields.js';
import { organizationRoutes } from './routes/organization.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { templateRoutes } from './routes/templates.js';
import { providerRoutes } from './routes/providers.js';
import { hookRoutes } from './routes/hooks.js';
import { callbackRoutes } from './routes/callbacks.js';
import { voteRoutes } from './routes/votes.js';
import { statsRoutes } from './routes/stats.js';
import { pluginRoutes } from './routes/plugin.js';
import { voterRoutes } from './routes/voters.js';
import { rewardRoutes } from './routes/rewards.js';
import { testVoteRoutes } from './routes/test-votes.js';
import { hookRequestRoutes } from './routes/hook-requests.js';
import { discordRoutes } from './routes/discord.js';

export const REST_ROUTES: RestRoute[] = [
  ...organizationRoutes,
  ...apiKeyRoutes,
  ...templateRoutes,
  ...providerRoutes,
  ...callbackRoutes,
  ...discordRoutes,
  ...voteRoutes,
  ...statsRoutes,
  ...pluginRoutes,
  ...voterRoutes,
  ...rewardRoutes,
  ...testVoteRoutes,
  ...hookRequestRoutes,
];
export const HOOK_ROUTES: RestRoute[] = hookRoutes;

export function prepareRoute(schema: GraphQLSchema, route: RestRoute) {
  const document = parse(route.document);
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`${route.method.toUpperCase()} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!operation) throw new Error(`${route.method.toUpperCase()} ${route.path}: no operation`);
  return { document, operation };
}

/** The rule every root field states (test/integration/schema-rules.test.ts checks that each has one). */
export function accessOf(field: GraphQLField<unknown, unknown>): AccessRule {
  const scopes = (field.extensions?.pothosOptions as { authScopes?: { public?: boolean; access?: AccessRule } } | undefined)?.authScopes;
  if (scopes?.access) return scopes.access;
  if (scopes?.public) return { scope: 'public' };
  throw new Error(`${field.name} states no access rule`);
}

/** The rules of the operation's root fields that need a credential (a write's body is read only after them). */
function credentialRules(schema: GraphQLSchema, operation: OperationDefinitionNode): AccessRule[] {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return operation.selectionSet.selections.flatMap((s) => {
    const field = s.kind === 'Field' ? root?.getFields()[s.name.value] : undefined;
    const rule = field ? accessOf(field) : null;
    return rule && rule.scope !== 'public' ? [rule] : [];
  });
}

export function createRestRouter(
  schema: GraphQLSchema,
  contextFor: (req: Request) => GraphQLContext,
  logger: Logger,
  routes: RestRoute[] = REST_ROUTES,
  mount = '/v1',
): Router {
  const router = express.Router();
  const prepared = routes.map((route) => {
    const { document, operation } = prepareRoute(schema, route);
    const fields = takesJsonBody(route) ? bodyFieldsOf(schema, route, document, operation) : null;
    return { route, document, operation, fields, rules: fields ? credentialRules(schema, operation) : [] };
  });
  // Where else a key is taken, for the hint of a key sent to the wrong route ("POST /v1/callbacks takes url").
  const labels: RouteLabel[] = prepared.flatMap(({ route, fields }) =>
    fields ? [{ label: `${route.method.toUpperCase()} ${mount}${route.path}`, fields }] : [],
  );
  for (const { route, document, operation, fields, rules } of prepared) {
    const fromQuery = route.method === 'get' || route.method === 'delete';
    router[route.method](route.path, async (req: Request, res: Response) => {
      if (route.arrayBody && Array.isArray(req.body)) req.body = { [route.arrayBody]: req.body };
      if (fields) {
        // Who is calling before what they sent: a key sent the wrong way hears so, not that its body lacks a field.
        const auth = req.auth ?? { kind: 'anonymous' };
        if (rules.length > 0 && (auth.kind === 'anonymous' || auth.kind === 'invalid')) {
          try {
            for (const rule of rules) checkAccess(auth, rule);
          } catch (err) {
            if (err instanceof AppError) return sendError(res, req.requestId, err.code, err.message, err.details);
            throw err;
          }
        }
        const unread = unreadBody(req);
        if (unread) return sendError(res, req.requestId, 'VALIDATION_ERROR', unread.message, unread.details);
      }
      const context = route.context ? { ...contextFor(req), ...route.context(req) } : contextFor(req);
      const raw = route.variables ? route.variables(req) : {};
      const coerced = coerceVariables(schema, operation, raw, fromQuery);
      const { variables } = coerced;
      const unknown = fields ? unknownBodyFields(req.body, fields, labels) : [];
      // A body that is not an object at all is one problem, not one per field the route then misses.
      const errors = unknown.some((e) => e.field === 'body') ? unknown : [...unknown, ...coerced.errors];
      if (errors.length > 0) {
        const error = validationError(errors);
        return sendError(res, req.requestId, error.code, error.message, error.details);
      }
      const result = await execute({ schema, document, contextValue: context, variableValues: variables });
      if (result.errors?.length) {
        const first = maskUnexpected(result.errors[0], { logger }) as { message: string; extensions?: Record<string, unknown> };
        const shape = toAppErrorShape(first);
        return sendError(res, req.requestId, shape.code, shape.message, shape.details);
      }
      if (route.stream) return route.stream(req, res, result.data, context);
      const data = route.data(result.data);
      const meta = { ...(route.meta ? route.meta(result.data) : {}), request_id: req.requestId };
      res.status(route.status ?? 200).json(route.omitMeta ? { data } : { data, meta });
    });
  }
  // A known path asked with another method: 405 with the methods it takes. Any other path under the mount: the error
  // envelope's 404, never the dashboard's page (which would answer an API client with HTML).
  const methodsOf = new Map<string, string[]>();
  for (const { route } of prepared) methodsOf.set(route.path, [...(methodsOf.get(route.path) ?? []), route.method.toUpperCase()]);
  for (const [path, methods] of methodsOf) {
    // A GET route answers HEAD too, except on a hook (a probe must not record a vote: app.ts refuses it).
    const allow = [...new Set(methods.includes('GET') && mount !== '/hooks' ? [...methods, 'HEAD'] : methods)].join(', ');
    router.all(path, (req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      sendError(res, req.requestId, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${mount}${req.path}; it takes ${allow}`);
    });
  }
  router.use((req: Request, res: Response) =>
    sendError(res, req.requestId, 'NOT_FOUND', `No route for ${req.method} ${mount}${req.path} (the API reference: /v1/reference)`),
  );
  return router;
}
