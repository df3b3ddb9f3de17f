// /v1/callbacks: variables, list, create, read, partial update, delete, test render, rotate the signing secret,
// replay a window of votes.
import { ALL_SETTINGS, callbackKindOf } from '../../src/delivery/callback-kinds/registry.js';
import { hasFlagName, restName } from '../../src/delivery/callback-kinds/settings-schema.js';
import type { RestRoute } from '../route.js';

/** A setting's read field, aliased to its REST name (`service_name: serviceName`). */
const aliased = (name: string) => (restName(name) === name ? name : `${restName(name)}: ${name}`);
const readField = (setting: (typeof ALL_SETTINGS)[number]) => (setting.writeOnly ? hasFlagName(setting.byKind[0].field) : setting.name);

const SHARED_FIELDS = `id name kind target timeout_ms: timeoutMs enabled priority providers events max_per_second: maxPerSecond
  disabled_reason: disabledReason disabled_at: disabledAt failing_since: failingSince created_at: createdAt updated_at: updatedAt`;
/** Every kind's settings are asked for; each answer keeps its own kind's (shape). */
const CALLBACK_FIELDS = `${SHARED_FIELDS} ${ALL_SETTINGS.map((setting) => aliased(readField(setting))).join(' ')}`;
const SETTING_FIELDS = new Set(ALL_SETTINGS.map((setting) => restName(readField(setting))));

/**
 * A callback's answer: the fields every kind has, and its own kind's settings (a Votifier callback has no url, an
 * HTTP one no host); a setting marked restOmitWhenNull (event_templates) only where it has a value. The signing
 * secret of a create or a rotation is shown by kinds that sign.
 */
function shape(cb: Record<string, unknown>): Record<string, unknown> {
  const kind = callbackKindOf(cb.kind as string);
  const own = new Map((kind?.settings ?? []).map((f) => [restName(f.secret && !f.shown ? hasFlagName(f) : f.name), f]));
  return Object.fromEntries(
    Object.entries(cb).filter(([key, value]) => {
      if (key === 'signing_secret') return kind?.signed === true;
      if (!SETTING_FIELDS.has(key)) return true;
      const field = own.get(key);
      return field !== undefined && !(field.restOmitWhenNull && value === null);
    }),
  );
}

export const callbackRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/callbacks/kinds',
    summary: 'List the kinds of callback, with their settings',
    document: `query { callbackKinds { name label description events signed marks_tests: marksTests
      settings { name rest_name: restName type label help required nullable secret read_as: readAs widget placeholder default } } }`,
    data: (r) => ({ kinds: r.callbackKinds }),
  },
  {
    method: 'get',
    path: '/callbacks/variables',
    summary: 'List the variables a payload template may use',
    document: `query { callbackVariables { name description example type events } }`,
    data: (r) => ({ variables: r.callbackVariables }),
  },
  {
    method: 'get',
    path: '/callbacks',
    summary: 'List callbacks',
    document: `query ($includeDisabled: Boolean) { callbacks(includeDisabled: $includeDisabled) { count limit callbacks { ${CALLBACK_FIELDS} } } }`,
    variables: (req) => ({ includeDisabled: req.query.include_disabled }),
    data: (r) => ({ ...r.callbacks, callbacks: r.callbacks.callbacks.map(shape) }),
  },
  {
    method: 'post',
    path: '/callbacks',
    summary: 'Create a callback (its signing secret is shown here)',
    errors: ['PLAN_LIMIT'],
    document: `mutation ($input: CreateCallbackInput!) { createCallback(input: $input) { signing_secret: signingSecret callback { ${CALLBACK_FIELDS} } } }`,
    variables: (req) => ({ input: req.body ?? {} }),
    status: 201,
    data: (r) => shape({ ...r.createCallback.callback, signing_secret: r.createCallback.signing_secret }),
  },
  {
    method: 'get',
    path: '/callbacks/:id',
    summary: 'Read a callback',
    document: `query ($id: ID!) { callback(id: $id) { ${CALLBACK_FIELDS} } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => shape(r.callback),
  },
  {
    method: 'patch',
    path: '/callbacks/:id',
    summary: 'Update a callback (only the fields given change)',
    document: `mutation ($id: ID!, $input: UpdateCallbackInput!) { updateCallback(id: $id, input: $input) { ${CALLBACK_FIELDS} } }`,
    variables: (req) => ({ id: req.params.id, input: req.body ?? {} }),
    data: (r) => shape(r.updateCallback),
  },
  {
    method: 'delete',
    path: '/callbacks/:id',
    summary: 'Delete a callback',
    document: `mutation ($id: ID!) { deleteCallback(id: $id) { message id } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.deleteCallback,
  },
  {
    method: 'post',
    path: '/callbacks/:id/test',
    summary: 'Render a test delivery (nothing is sent)',
    document: `mutation ($id: ID!, $event: CallbackEvent) { testCallback(id: $id, event: $event) { url method headers payload sent message } }`,
    variables: (req) => ({ id: req.params.id, event: req.body?.event }),
    // A render's answer keeps the interface's shape; a live check (RCON) adds what it saw.
    data: (r) => (r.testCallback.message === null ? Object.fromEntries(Object.entries(r.testCallback).filter(([k]) => k !== 'message')) : r.testCallback),
  },
  {
    method: 'post',
    path: '/callbacks/:id/replay',
    summary: 'Deliver the votes of a time window again',
    document: `mutation ($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {
      replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) {
        callback_id: callbackId queued since until only_failed: onlyFailed } }`,
    variables: (req) => ({ id: req.params.id, since: req.body?.since, until: req.body?.until, onlyFailed: req.body?.only_failed }),
    data: (r) => r.replayCallback,
  },
  {
    method: 'post',
    path: '/callbacks/:id/rotate-secret',
    summary: "Rotate a callback's signing secret",
    document: `mutation ($id: ID!) { rotateCallbackSecret(id: $id) { id signing_secret: signingSecret } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.rotateCallbackSecret,
  },
];
