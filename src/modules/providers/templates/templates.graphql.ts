// The public catalogue of provider templates (real voting sites).
import { builder } from '../../../graphql/builder.js';
import { PROVIDER_TEMPLATES, type ProviderTemplate } from './catalogue.js';
import { AuthMethodEnum } from '../providers.graphql.js';

const SiteMethodEnum = builder.enumType('SiteDeliveryMethod', { description: 'How the site sends its deliveries', values: ['POST', 'GET'] as const });
const SiteSignatureEnum = builder.enumType('SiteSignature', {
  description: "How the site writes its signature: hex, sha256=<hex>, or top.gg's t=<unix>,v1=<hex>",
  values: ['hex', 'sha256_hex', 'topgg'] as const,
});

export const ProviderTemplateRef = builder.objectRef<ProviderTemplate>('ProviderTemplate').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    websiteUrl: t.exposeString('websiteUrl'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    authMethod: t.expose('authMethod', { type: AuthMethodEnum }),
    authField: t.exposeString('authField'),
    authKeySource: t.exposeString('authKeySource', { nullable: true }),
    authTimestampField: t.exposeString('authTimestampField', { nullable: true }),
    defaultVoteePath: t.exposeString('defaultVoteePath'),
    eventPath: t.exposeString('eventPath', { nullable: true }),
    voteEvents: t.exposeStringList('voteEvents', { nullable: true }),
    testEvents: t.exposeStringList('testEvents', { nullable: true }),
    method: t.expose('method', { type: SiteMethodEnum }),
    signatureFormat: t.expose('signatureFormat', { type: SiteSignatureEnum, nullable: true }),
    payloadExample: t.field({ type: 'JSON', resolve: (tpl) => tpl.payloadExample }),
    setupInstructions: t.exposeString('setupInstructions'),
    bodyTimestampPath: t.string({
      nullable: true,
      description: 'A timestamp in the signed body; older than bodyTimestampMaxAge seconds is refused',
      resolve: (tpl) => tpl.bodyTimestampPath ?? null,
    }),
    bodyTimestampMaxAge: t.int({ nullable: true, resolve: (tpl) => tpl.bodyTimestampMaxAgeSeconds ?? null }),
    retryHorizonSeconds: t.int({
      nullable: true,
      description: 'How long the site keeps retrying an unacknowledged delivery (its docs)',
      resolve: (tpl) => tpl.retryHorizonSeconds ?? null,
    }),
    recovery: t.boolean({
      description: "Votes missed during an outage can be recovered from the site's vote list (give the provider an api_token)",
      resolve: (tpl) => tpl.recovery !== undefined,
    }),
  }),
});

builder.queryField('templates', (t) =>
  t.field({
    type: [ProviderTemplateRef],
    description: 'Provider templates for real voting sites (public)',
    authScopes: { public: true },
    resolve: () => PROVIDER_TEMPLATES,
  }),
);
