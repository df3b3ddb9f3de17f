// The public catalogue of provider templates (real voting sites).
import { builder } from '../../graphql/builder.js';
import { PROVIDER_TEMPLATES, type ProviderTemplate } from './catalogue.js';

export const ProviderTemplateRef = builder.objectRef<ProviderTemplate>('ProviderTemplate').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    websiteUrl: t.exposeString('websiteUrl'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    authMethod: t.exposeString('authMethod'),
    authField: t.exposeString('authField'),
    authKeySource: t.exposeString('authKeySource', { nullable: true }),
    authTimestampField: t.exposeString('authTimestampField', { nullable: true }),
    defaultVoteePath: t.exposeString('defaultVoteePath'),
    eventPath: t.exposeString('eventPath', { nullable: true }),
    voteEvents: t.exposeStringList('voteEvents', { nullable: true }),
    testEvents: t.exposeStringList('testEvents', { nullable: true }),
    method: t.exposeString('method'),
    signatureFormat: t.exposeString('signatureFormat', { nullable: true }),
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
