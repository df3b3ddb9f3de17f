// `query`: the query parameter named auth_field carries the secret (lists that only let you paste a URL).
import { declaredContent, PAYLOAD_SOURCES, refused, unsignedProblems, type AuthMethodDefinition } from './auth-method.js';
import { secretsEqual } from '../../../crypto/secrets-equal.js';

export const queryMethod: AuthMethodDefinition = {
  name: 'query',
  payloadSources: PAYLOAD_SOURCES,
  // GET-style lists (TopG, Gaming-Toplist) are why this method exists.
  defaultPayloadSource: 'query',
  authFieldIs: 'the query parameter that carries the secret (e.g. token)',
  check: unsignedProblems,
  verify(config, secret, request) {
    const value = request.query[config.authField];
    if (!value) return refused(`missing ${config.authField} query parameter`);
    if (!secretsEqual(value, secret)) return refused('wrong secret');
    return declaredContent(config, request, config.authField);
  },
  webhookUrl: (base, config, secret) => (secret === undefined ? base : `${base}?${new URLSearchParams({ [config.authField]: secret })}`),
  authenticate: (config, secret) => ({ headers: {}, query: { [config.authField]: secret } }),
};
