/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n": typeof types.ViewerDocument,
    "\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt } }\n  }\n": typeof types.OverviewDocument,
    "\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt }\n  }\n": typeof types.LiveVotesDocument,
    "\n  query Providers {\n    providers { count limit providers { id key name authMethod enabled webhookUrl votesToday votesTotal } }\n    templates { id slug name description websiteUrl authMethod authKeySource setupInstructions }\n  }\n": typeof types.ProvidersDocument,
    "\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n": typeof types.SetProviderEnabledDocument,
    "\n  mutation CreateProviderFromTemplate($input: CreateProviderInput!) {\n    createProvider(input: $input) { id key name authValue webhookUrl }\n  }\n": typeof types.CreateProviderFromTemplateDocument,
    "\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus }\n    }\n    providers { providers { key name } }\n  }\n": typeof types.VotesDocument,
};
const documents: Documents = {
    "\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n": types.ViewerDocument,
    "\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt } }\n  }\n": types.OverviewDocument,
    "\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt }\n  }\n": types.LiveVotesDocument,
    "\n  query Providers {\n    providers { count limit providers { id key name authMethod enabled webhookUrl votesToday votesTotal } }\n    templates { id slug name description websiteUrl authMethod authKeySource setupInstructions }\n  }\n": types.ProvidersDocument,
    "\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n": types.SetProviderEnabledDocument,
    "\n  mutation CreateProviderFromTemplate($input: CreateProviderInput!) {\n    createProvider(input: $input) { id key name authValue webhookUrl }\n  }\n": types.CreateProviderFromTemplateDocument,
    "\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus }\n    }\n    providers { providers { key name } }\n  }\n": types.VotesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt } }\n  }\n"): (typeof documents)["\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt }\n  }\n"): (typeof documents)["\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Providers {\n    providers { count limit providers { id key name authMethod enabled webhookUrl votesToday votesTotal } }\n    templates { id slug name description websiteUrl authMethod authKeySource setupInstructions }\n  }\n"): (typeof documents)["\n  query Providers {\n    providers { count limit providers { id key name authMethod enabled webhookUrl votesToday votesTotal } }\n    templates { id slug name description websiteUrl authMethod authKeySource setupInstructions }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n"): (typeof documents)["\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProviderFromTemplate($input: CreateProviderInput!) {\n    createProvider(input: $input) { id key name authValue webhookUrl }\n  }\n"): (typeof documents)["\n  mutation CreateProviderFromTemplate($input: CreateProviderInput!) {\n    createProvider(input: $input) { id key name authValue webhookUrl }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus }\n    }\n    providers { providers { key name } }\n  }\n"): (typeof documents)["\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus }\n    }\n    providers { providers { key name } }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;