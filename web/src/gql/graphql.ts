/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** How a voting site proves a delivery is its own */
export type AuthMethod =
  | 'header'
  | 'hmac'
  | 'query'
  | 'url_path';

export type CreateProviderInput = {
  authField?: string | null | undefined;
  authMethod?: AuthMethod | null | undefined;
  authTimestampField?: string | null | undefined;
  /** The secret; "auto" or omitted generates one */
  authValue?: string | null | undefined;
  enabled?: boolean | null | undefined;
  eventPath?: string | null | undefined;
  key?: string | null | undefined;
  name?: string | null | undefined;
  /** Default: query for query providers, json otherwise */
  payloadSource?: PayloadSource | null | undefined;
  /** hmac only; default plain */
  signatureFormat?: SignatureFormat | null | undefined;
  /** Template id or slug (GET /v1/templates); fills what is left out */
  template?: string | null | undefined;
  testEvents?: Array<string> | null | undefined;
  voteEvents?: Array<string> | null | undefined;
  voteePath?: string | null | undefined;
};

/** A vote's chat or callback delivery */
export type DeliveryStatus =
  | 'failed'
  | 'pending'
  | 'retrying'
  | 'sent'
  | 'skipped';

/** Where a provider reads votes from */
export type PayloadSource =
  | 'form'
  | 'json'
  | 'query';

/** Plans in order: starter, growth, pro, business */
export type Plan =
  | 'business'
  | 'growth'
  | 'pro'
  | 'starter';

/** read: every query; full: everything */
export type Scope =
  | 'full'
  | 'read';

/** hmac providers: how the signature is written */
export type SignatureFormat =
  | 'plain'
  | 'topgg';

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { scope: Scope } | null, organization: { name: string, slug: string, plan: Plan } | null };

export type OverviewQueryVariables = Exact<{ [key: string]: never; }>;


export type OverviewQuery = { organization: { name: string, plan: Plan, usage: { votesThisMonth: number, votesLimit: number, providersCount: number, providersLimit: number } } | null, dashboardStats: { summary: { today: number, thisWeek: number, thisMonth: number, allTime: number }, byProvider: Array<{ key: string, name: string, count: number }>, dailyTrend: Array<{ date: string, count: number }> } | null, failingCallbacks: Array<{ failedLast24h: number, lastError: string | null, lastFailedAt: string, callback: { id: string, name: string } }> | null, votes: { votes: Array<{ publicId: string, voterName: string, providerKey: string, providerName: string, receivedAt: string }> } | null };

export type LiveVotesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type LiveVotesSubscription = { voteReceived: { publicId: string, voterName: string, providerKey: string, providerName: string, receivedAt: string } };

export type ProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type ProvidersQuery = { providers: { count: number, limit: number, providers: Array<{ id: string, key: string, name: string, authMethod: AuthMethod, enabled: boolean, webhookUrl: string, votesToday: number, votesTotal: number }> } | null, templates: Array<{ id: string, slug: string, name: string, description: string, websiteUrl: string, authMethod: AuthMethod, authKeySource: string | null, setupInstructions: string }> };

export type SetProviderEnabledMutationVariables = Exact<{
  key: string;
  enabled: boolean;
}>;


export type SetProviderEnabledMutation = { updateProvider: { id: string, enabled: boolean } | null };

export type CreateProviderFromTemplateMutationVariables = Exact<{
  input: CreateProviderInput;
}>;


export type CreateProviderFromTemplateMutation = { createProvider: { id: string, key: string, name: string, authValue: string, webhookUrl: string } | null };

export type VotesQueryVariables = Exact<{
  page?: number | null | undefined;
  provider?: string | null | undefined;
  voter?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  chatStatus?: DeliveryStatus | null | undefined;
  callbackStatus?: DeliveryStatus | null | undefined;
}>;


export type VotesQuery = { votes: { page: number, pages: number, total: number, votes: Array<{ publicId: string, voterName: string, providerKey: string, providerName: string, receivedAt: string, chatStatus: DeliveryStatus, callbackStatus: DeliveryStatus }> } | null, providers: { providers: Array<{ key: string, name: string }> } | null };


export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const OverviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Overview"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votesThisMonth"}},{"kind":"Field","name":{"kind":"Name","value":"votesLimit"}},{"kind":"Field","name":{"kind":"Name","value":"providersCount"}},{"kind":"Field","name":{"kind":"Name","value":"providersLimit"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"dashboardStats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"today"}},{"kind":"Field","name":{"kind":"Name","value":"thisWeek"}},{"kind":"Field","name":{"kind":"Name","value":"thisMonth"}},{"kind":"Field","name":{"kind":"Name","value":"allTime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"byProvider"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dailyTrend"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"failingCallbacks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callback"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failedLast24h"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastFailedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]}}]} as unknown as DocumentNode<OverviewQuery, OverviewQueryVariables>;
export const LiveVotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveVotes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voteReceived"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]} as unknown as DocumentNode<LiveVotesSubscription, LiveVotesSubscriptionVariables>;
export const ProvidersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authMethod"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"votesToday"}},{"kind":"Field","name":{"kind":"Name","value":"votesTotal"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"templates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"websiteUrl"}},{"kind":"Field","name":{"kind":"Name","value":"authMethod"}},{"kind":"Field","name":{"kind":"Name","value":"authKeySource"}},{"kind":"Field","name":{"kind":"Name","value":"setupInstructions"}}]}}]}}]} as unknown as DocumentNode<ProvidersQuery, ProvidersQueryVariables>;
export const SetProviderEnabledDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetProviderEnabled"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"enabled"},"value":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}}]} as unknown as DocumentNode<SetProviderEnabledMutation, SetProviderEnabledMutationVariables>;
export const CreateProviderFromTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProviderFromTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProviderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authValue"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}}]}}]}}]} as unknown as DocumentNode<CreateProviderFromTemplateMutation, CreateProviderFromTemplateMutationVariables>;
export const VotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Votes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"voter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatStatus"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DeliveryStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"callbackStatus"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DeliveryStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"25"}},{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"voter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"voter"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"chatStatus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatStatus"}}},{"kind":"Argument","name":{"kind":"Name","value":"callbackStatus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"callbackStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"pages"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"votes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"chatStatus"}},{"kind":"Field","name":{"kind":"Name","value":"callbackStatus"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<VotesQuery, VotesQueryVariables>;