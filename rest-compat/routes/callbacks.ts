// /v1/callbacks: variables, list, create, read, partial update, delete, test render, rotate the signing secret,
// replay a window of votes.
import { onlyIfSet, type RestRoute } from '../route.js';

const CALLBACK_FIELDS = `id name kind url timeout_ms: timeoutMs enabled priority payload_template: payloadTemplate
  providers events event_templates: eventTemplates max_per_second: maxPerSecond disabled_reason: disabledReason disabled_at: disabledAt failing_since: failingSince
  created_at: createdAt updated_at: updatedAt host port service_name: serviceName has_token: hasToken public_key: publicKey`;

const VOTIFIER_ONLY = ['host', 'port', 'service_name', 'has_token', 'public_key'];
/** What a votifier callback does not use: it sends the Votifier vote (no URL, no template) and is not signed. */
const HTTP_ONLY = ['url', 'payload_template', 'signing_secret', 'event_templates'];
/** HTTP callbacks keep the interface's fields; votifier ones add theirs and leave out what does not apply. */
/** A callback's own payloads per event (README "Rewards") are shown where it has some. */
const eventTemplatesIfSet = onlyIfSet(['event_templates']);
const shape = (cb: Record<string, unknown>) =>
  eventTemplatesIfSet(Object.fromEntries(Object.entries(cb).filter(([k]) => !(cb.kind === 'votifier' ? HTTP_ONLY : VOTIFIER_ONLY).includes(k))));

export const callbackRoutes: RestRoute[] = [
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
    document: `mutation ($id: ID!, $event: CallbackEvent) { testCallback(id: $id, event: $event) { url method headers payload sent } }`,
    variables: (req) => ({ id: req.params.id, event: req.body?.event }),
    data: (r) => r.testCallback,
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
