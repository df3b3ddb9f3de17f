// Mounts every /v1 route: parse and validate its document once, then per request coerce variables, execute
// against the one schema in-process, and write the interface's envelope (or the error envelope).
import express, { type Request, type Response, type Router } from 'express';
import { execute, parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { GraphQLContext } from '../src/graphql/context.js';
import { maskUnexpected } from '../src/graphql/yoga.js';
import { toAppErrorShape, validationError } from '../src/errors.js';
import { sendError } from '../src/http/error-response.js';
import type { Logger } from '../src/logger.js';
import type { RestRoute } from './route.js';
import { coerceVariables } from './variables.js';
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
import { testVoteRoutes } from './routes/test-votes.js';
import { hookRequestRoutes } from './routes/hook-requests.js';

export const REST_ROUTES: RestRoute[] = [...organizationRoutes, ...apiKeyRoutes, ...templateRoutes, ...providerRoutes, ...callbackRoutes, ...voteRoutes, ...statsRoutes, ...pluginRoutes, ...voterRoutes, ...testVoteRoutes, ...hookRequestRoutes];
export const HOOK_ROUTES: RestRoute[] = hookRoutes;

export function prepareRoute(schema: GraphQLSchema, route: RestRoute) {
  const document = parse(route.document);
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`${route.method.toUpperCase()} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!operation) throw new Error(`${route.method.toUpperCase()} ${route.path}: no operation`);
  return { document, operation };
}

export function createRestRouter(
  schema: GraphQLSchema,
  contextFor: (req: Request) => GraphQLContext,
  logger: Logger,
  routes: RestRoute[] = REST_ROUTES,
): Router {
  const router = express.Router();
  for (const route of routes) {
    const { document, operation } = prepareRoute(schema, route);
    const fromQuery = route.method === 'get' || route.method === 'delete';
    router[route.method](route.path, async (req: Request, res: Response) => {
      const context = route.context ? { ...contextFor(req), ...route.context(req) } : contextFor(req);
      const raw = route.variables ? route.variables(req) : {};
      const { variables, errors } = coerceVariables(schema, operation, raw, fromQuery);
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
  return router;
}
