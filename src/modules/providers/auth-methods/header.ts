// `header`: the header named auth_field carries the secret (a leading `Bearer ` is ignored).
import { declaredContent, headerNameProblems, PAYLOAD_SOURCES, refused, unsignedProblems, type AuthMethodDefinition } from './auth-method.js';
import { secretsEqual } from '../../../crypto/secrets-equal.js';

export const headerMethod: AuthMethodDefinition = {
  name: 'header',
  payloadSources: PAYLOAD_SOURCES,
  defaultPayloadSource: 'json',
  authFieldIs: 'the header the site sends its secret in (e.g. Authorization)',
  check: (config) => [...headerNameProblems(config), ...unsignedProblems(config)],
  verify(config, secret, request) {
    const value = request.headers[config.authField.toLowerCase()];
    if (!value) return refused(`missing ${config.authField} header`);
    if (!secretsEqual(value.replace(/^Bearer\s+/i, ''), secret)) return refused('wrong secret');
    return declaredContent(config, request);
  },
  webhookUrl: (base) => base,
  authenticate: (config, secret) => ({ headers: { [config.authField.toLowerCase()]: secret }, query: {} }),
};
