// The public catalogue of provider templates (real voting sites).
import { builder } from '../../graphql/builder.js';
import { PROVIDER_TEMPLATES, type ProviderTemplate } from './catalogue.js';
import { AuthMethodEnum } from '../providers/providers.graphql.js';

const SiteMethodEnum = builder.enumType('SiteDeliveryMethod', { description: 'How the site sends its deliveries', values: ['POST', 'GET'] as string[] });
const SiteSignatureEnum = builder.enumType('SiteSignature', {
  description: "How the site writes its signature: hex, sha256=<hex>, or top.gg's t=<unix>,v1=<hex>",
  values: ['hex', 'sha256_hex', 'topgg'] as string[],
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
