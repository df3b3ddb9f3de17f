// `url_path`: the secret is the hook URL's last path segment.
import { declaredContent, PAYLOAD_SOURCES, refused, unsignedProblems, type AuthMethodDefinition } from './auth-method.js';
import { secretsEqual } from '../../../crypto/secrets-equal.js';

export const urlPathMethod: AuthMethodDefinition = {
  name: 'url_path',
  payloadSources: PAYLOAD_SOURCES,
  defaultPayloadSource: 'json',
  authFieldIs: 'a name for the secret path segment (e.g. s)',
  check: unsignedProblems,
  verify(config, secret, request) {
    if (!request.pathSecret) return refused('missing secret path segment');
    if (!secretsEqual(request.pathSecret, secret)) return refused('wrong secret');
    return declaredContent(config, request);
  },
  webhookUrl: (base, _config, secret) => (secret === undefined ? base : `${base}/${encodeURIComponent(secret)}`),
  authenticate: (_config, secret) => ({ headers: {}, query: {}, pathSecret: secret }),
};
