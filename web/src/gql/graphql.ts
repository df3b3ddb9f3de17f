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
  | 'url_path'
  | 'votifier';

/** vote: each vote; milestone, vote_party, reminder: events beyond a vote (README "Rewards") */
export type CallbackEvent =
  | 'milestone'
  | 'reminder'
  | 'vote'
  | 'vote_party';

/** http: a signed POST of a JSON payload (Standard Webhooks); votifier: the Votifier protocol (NuVotifier v2 with a token, v1 with an RSA key); rcon: console commands run on a Minecraft server over RCON (server.properties: enable-rcon), no plugin needed; discord_role: a Discord role given to the voter for a while with your own bot (settings.discord_bot_token); discord_dm: a direct message to the voter from your own bot (settings.discord_bot_token): vote thank-yous, milestones, reminders; redis_stream: each delivery added to a Redis stream (XADD … MAXLEN ~); amqp: each delivery published to RabbitMQ, persistent, with publisher confirms; nats: each delivery published to NATS JetStream with Nats-Msg-Id (the server drops a repeat); mqtt: each delivery published to an MQTT topic with QoS 1 */
export type CallbackKind =
  | 'amqp'
  | 'discord_dm'
  | 'discord_role'
  | 'http'
  | 'mqtt'
  | 'nats'
  | 'rcon'
  | 'redis_stream'
  | 'votifier';

/** How a setting is written: string, int, boolean, strings (a list of text), json */
export type CallbackSettingType =
  | 'boolean'
  | 'int'
  | 'json'
  | 'string'
  | 'strings';

/** simple: a text message; embed: a rich embed (Growth+) */
export type ChatMessageType =
  | 'embed'
  | 'simple';

export type CreateApiKeyInput = {
  name: string;
  scope: Scope;
};

export type CreateCallbackInput = {
  /** http: sent as Authorization: Bearer <auth_secret>; never returned */
  authSecret?: string | null | undefined;
  /** rcon: console commands run in order for each vote, with {{variables}} ({{voter_name}} only as a valid player name) */
  commands?: Array<string> | null | undefined;
  /** discord_role: how long a vote keeps the role (1m to 90d, e.g. 12h); a vote while it is held starts it again */
  duration?: string | null | undefined;
  enabled?: boolean | null | undefined;
  /** rcon: {milestone?, vote_party?, reminder?}, each a list of commands; a vote party’s run once per server */
  eventCommands?: unknown;
  /** http: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; redis_stream: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; amqp: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; nats: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; mqtt: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults */
  eventTemplates?: unknown;
  /** The events it takes; default [vote] */
  events?: Array<CallbackEvent> | null | undefined;
  /** amqp: an existing exchange to publish to, instead of a queue */
  exchange?: string | null | undefined;
  /** discord_dm: where a voter who does not accept DMs gets the message instead, with a mention; null: they get none */
  fallbackChannelId?: string | null | undefined;
  /** votifier: the Votifier server's host name or IP address; rcon: the Minecraft server's host name or IP address (RCON is plaintext: keep it on a private network or a tunnel) */
  host?: string | null | undefined;
  /** Default http */
  kind?: CallbackKind | null | undefined;
  /** redis_stream: MAXLEN ~: Redis trims the stream to about this many entries */
  maxLen?: number | null | undefined;
  /** At most this many deliveries start per second (1-1000); null = no limit */
  maxPerSecond?: number | null | undefined;
  /** discord_dm: the DM, with {{variables}} (a reminder has {{vote_url}}); mentions in it ping nobody */
  message?: string | null | undefined;
  name: string;
  /** rcon: rcon.password in server.properties; never returned; nats: its password; never returned; mqtt: its password; never returned */
  password?: string | null | undefined;
  /** http: the body of a vote’s delivery, with {{variables}}; redis_stream: the message body of a vote, with {{variables}}; amqp: the message body of a vote, with {{variables}}; nats: the message body of a vote, with {{variables}}; mqtt: the message body of a vote, with {{variables}} */
  payloadTemplate?: unknown;
  /** votifier: its Votifier port (default 8192); rcon: rcon.port in server.properties (default 25575) */
  port?: number | null | undefined;
  priority?: number | null | undefined;
  /** Keys of the providers whose votes it takes; empty = every provider */
  providers?: Array<string> | null | undefined;
  /** votifier: protocol v1: the RSA public key (PEM or base64) */
  publicKey?: string | null | undefined;
  /** amqp: a durable queue to declare and publish to (or give exchange) */
  queue?: string | null | undefined;
  /** rcon: before a vote’s commands run, `list` must show the player; an offline player’s vote is parked until they join */
  requireOnline?: boolean | null | undefined;
  /** discord_role: the role each voter gets (the bot’s own role must be above it) */
  roleId?: string | null | undefined;
  /** amqp: with exchange: the routing key */
  routingKey?: string | null | undefined;
  /** votifier: the service name the server sees */
  serviceName?: string | null | undefined;
  /** redis_stream: the stream key */
  stream?: string | null | undefined;
  /** nats: a subject a JetStream stream takes */
  subject?: string | null | undefined;
  timeoutMs?: number | null | undefined;
  /** votifier: protocol v2: the server token (NuVotifier config.yml, tokens.default); never returned; nats: its auth token; never returned */
  token?: string | null | undefined;
  /** mqtt: the topic to publish to */
  topic?: string | null | undefined;
  /** http: where each delivery is POSTed; redis_stream: the broker (redis:// or rediss://); kept encrypted, read back without its password; amqp: the broker (amqp:// or amqps://); kept encrypted, read back without its password; nats: the broker (nats:// or tls://); kept encrypted, read back without its password; mqtt: the broker (mqtt:// or mqtts://); kept encrypted, read back without its password */
  url?: string | null | undefined;
  /** nats: its user name (with a password); mqtt: its user name (with a password) */
  username?: string | null | undefined;
};

export type CreateProviderInput = {
  /** top.gg providers: the project's API token, to recover votes the hook missed; never returned; null removes it */
  apiToken?: string | null | undefined;
  authField?: string | null | undefined;
  authMethod?: AuthMethod | null | undefined;
  authTimestampField?: string | null | undefined;
  /** The secret; "auto" or omitted generates one */
  authValue?: string | null | undefined;
  /** Seconds; an older body timestamp is refused (default 300) */
  bodyTimestampMaxAge?: number | null | undefined;
  /** A timestamp in the signed body (dotted path; epoch s or ms, or ISO 8601); null turns the check off */
  bodyTimestampPath?: string | null | undefined;
  /** Where the voter's Discord user id is in the body (dotted path); null: none */
  discordIdPath?: string | null | undefined;
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
  /** When a voter may vote again on the site: {"hours": N}, {"minutes": N}, both, or {"daily_reset": "HH:MM", "time_zone": "<IANA>"}; null: unknown */
  voteCooldown?: unknown;
  voteEvents?: Array<string> | null | undefined;
  /** The site's vote page for reminders (http(s); may hold variables such as {{payload.bot}}); null: none */
  voteUrl?: string | null | undefined;
  voteePath?: string | null | undefined;
  /** Where the voter's IP address is in the body (dotted path); null: none */
  voterAddressPath?: string | null | undefined;
  /** What the name at voteePath is (default: minecraft for votifier, name otherwise) */
  voterKind?: VoterKind | null | undefined;
  /** votifier only: a port of its own within VOTIFIER_DEDICATED_PORTS (v1 without routing) */
  votifierPort?: number | null | undefined;
};

/** What a delivery job delivers (each value says) */
export type DeliveryJobKind =
  /** an admin alert (to the organization's admin chat) */
  | 'alert'
  /** a callback (HTTP, Votifier, RCON, a broker, a Discord role) */
  | 'callback'
  /** the chat notification of a vote */
  | 'chat'
  /** an event the vote set off (milestone, vote_party, reminder: see `event`) */
  | 'event'
  /** server_callback_url (the interface's one callback URL) */
  | 'legacy_callback'
  /** a chat post (the leaderboard posts) */
  | 'post'
  /** a vote a Minecraft plugin takes (GET /v1/plugin/votes) */
  | 'pull';

/** vote: planned with the vote; recovered: the vote was read from the site's vote list after an outage; replay: queued by a callback replay */
export type DeliveryJobOrigin =
  | 'recovered'
  | 'replay'
  | 'vote';

/** running: claimed by a worker now; held: its callback is disabled, and it resumes when the callback is enabled again; parked: a vote kept for an offline player; uncertain: the relay stopped while sending it to a target that cannot drop a repeat, so it was not sent again (the server may or may not have it; redeliverVote sends it again on purpose) */
export type DeliveryJobStatus =
  | 'failed'
  | 'held'
  | 'parked'
  | 'pending'
  | 'retrying'
  | 'running'
  | 'sent'
  | 'skipped'
  | 'uncertain';

/** A vote's chat or callback delivery. uncertain: the relay stopped while sending it to a target that cannot drop a repeat (Votifier, RCON, chat, a DM) and did not send it again; it waits for the owner's decision (redeliverVote) */
export type DeliveryStatus =
  | 'failed'
  | 'pending'
  | 'retrying'
  | 'sent'
  | 'skipped'
  | 'uncertain';

/** active: held until expiresAt; removed: taken away at expiry; not_member: the user is not in the server, no role was given */
export type DiscordRoleGrantStatus =
  | 'active'
  | 'not_member'
  | 'removed';

/** disabled: turned off with a reason; retrying: deliveries wait for another attempt; failing: its last attempt failed and nothing is left to retry; recovered: it failed in the last 24 hours and its last attempt succeeded */
export type FailingCallbackState =
  | 'disabled'
  | 'failing'
  | 'recovered'
  | 'retrying';

/** UTC buckets: a day, an ISO week (its Monday), a month (its first day) */
export type Granularity =
  | 'day'
  | 'month'
  | 'week';

/** How a hook request ended: accepted (a vote stored), duplicate, test (a site's test ping), ignored (not a vote event), refused */
export type HookRequestOutcome =
  | 'accepted'
  | 'duplicate'
  | 'ignored'
  | 'refused'
  | 'test';

/** http: a hook URL; votifier_v1 / votifier_v2: a Votifier session; test_vote: the owner's test vote */
export type HookRequestProtocol =
  | 'http'
  | 'test_vote'
  | 'votifier_v1'
  | 'votifier_v2';

/** day, week or month: a leaderboard post covers the period that ends at it */
export type LeaderboardPeriod =
  | 'day'
  | 'month'
  | 'week';

export type LeaderboardPostsInput = {
  /** "HH:MM" (day), "Mon HH:MM" (week), "D HH:MM" (month, D 1 to 28) */
  at: string;
  period: LeaderboardPeriod;
  /** 1 to 25 */
  top: number;
};

export type MilestoneRuleInput = {
  at?: Array<number> | null | undefined;
  every?: number | null | undefined;
  provider?: string | null | undefined;
  type: MilestoneType;
};

/** total: the voter's counted votes (in the organization, or on one site with provider); streak: consecutive voting days */
export type MilestoneType =
  | 'streak'
  | 'total';

export type OrganizationSettingsInput = {
  adminDailySummary?: boolean | null | undefined;
  adminPermanentFailAlerts?: boolean | null | undefined;
  adminUsageWarnings?: boolean | null | undefined;
  adminVoteSpikeAlerts?: boolean | null | undefined;
  adminWeeklySummary?: boolean | null | undefined;
  /** Floodgate's username prefix (e.g. "."); null: none */
  bedrockPrefix?: string | null | undefined;
  chatAdminWebhookUrl?: string | null | undefined;
  chatEmbedTemplate?: unknown;
  chatMessageTemplate?: string | null | undefined;
  chatMessageType?: ChatMessageType | null | undefined;
  chatMilestoneTemplate?: string | null | undefined;
  chatNotificationsEnabled?: boolean | null | undefined;
  chatVotePartyTemplate?: string | null | undefined;
  chatWebhookUrl?: string | null | undefined;
  /** Your Discord bot's token (checked with Discord when saved; never returned); null removes it */
  discordBotToken?: string | null | undefined;
  /** The Discord server (guild) id the bot gives vote roles in */
  discordGuildId?: string | null | undefined;
  /** Post the period's top voters to the chat webhook; null: stop */
  leaderboardPosts?: LeaderboardPostsInput | null | undefined;
  /** Replaces every rule; [] removes them */
  milestones?: Array<MilestoneRuleInput> | null | undefined;
  remindersEnabled?: boolean | null | undefined;
  serverCallbackUrl?: string | null | undefined;
  /** IANA time zone name; applies to votes from then on (days already counted keep their day) */
  timeZone?: string | null | undefined;
  /** The players' vote page at /vote/<slug>; null turns it off */
  votePage?: VotePageInput | null | undefined;
  /** At least 2; null turns the party off; a change starts the count over */
  votePartyEvery?: number | null | undefined;
  /** A provider key, or null for every site; a change starts the count over */
  votePartyProvider?: string | null | undefined;
};

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

export type PluginConnection =
  | 'connected'
  | 'disconnected'
  | 'intermittent'
  | 'never';

/** read: every query; full: everything */
export type Scope =
  | 'full'
  | 'read';

/** hmac providers: how the signature is written */
export type SignatureFormat =
  | 'plain'
  | 'topgg';

export type TestChatWebhookInput = {
  embedTemplate?: unknown;
  messageTemplate?: string | null | undefined;
  messageType?: ChatMessageType | null | undefined;
  webhookUrl: string;
};

export type UpdateCallbackInput = {
  /** http: sent as Authorization: Bearer <auth_secret>; never returned */
  authSecret?: string | null | undefined;
  /** rcon: console commands run in order for each vote, with {{variables}} ({{voter_name}} only as a valid player name) */
  commands?: Array<string> | null | undefined;
  /** discord_role: how long a vote keeps the role (1m to 90d, e.g. 12h); a vote while it is held starts it again */
  duration?: string | null | undefined;
  enabled?: boolean | null | undefined;
  /** rcon: {milestone?, vote_party?, reminder?}, each a list of commands; a vote party’s run once per server */
  eventCommands?: unknown;
  /** http: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; redis_stream: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; amqp: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; nats: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults; mqtt: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults */
  eventTemplates?: unknown;
  /** The events it takes; default [vote] */
  events?: Array<CallbackEvent> | null | undefined;
  /** amqp: an existing exchange to publish to, instead of a queue */
  exchange?: string | null | undefined;
  /** discord_dm: where a voter who does not accept DMs gets the message instead, with a mention; null: they get none */
  fallbackChannelId?: string | null | undefined;
  /** votifier: the Votifier server's host name or IP address; rcon: the Minecraft server's host name or IP address (RCON is plaintext: keep it on a private network or a tunnel) */
  host?: string | null | undefined;
  /** redis_stream: MAXLEN ~: Redis trims the stream to about this many entries */
  maxLen?: number | null | undefined;
  /** At most this many deliveries start per second (1-1000); null = no limit */
  maxPerSecond?: number | null | undefined;
  /** discord_dm: the DM, with {{variables}} (a reminder has {{vote_url}}); mentions in it ping nobody */
  message?: string | null | undefined;
  name?: string | null | undefined;
  /** rcon: rcon.password in server.properties; never returned; nats: its password; never returned; mqtt: its password; never returned */
  password?: string | null | undefined;
  /** http: the body of a vote’s delivery, with {{variables}}; redis_stream: the message body of a vote, with {{variables}}; amqp: the message body of a vote, with {{variables}}; nats: the message body of a vote, with {{variables}}; mqtt: the message body of a vote, with {{variables}} */
  payloadTemplate?: unknown;
  /** votifier: its Votifier port (default 8192); rcon: rcon.port in server.properties (default 25575) */
  port?: number | null | undefined;
  priority?: number | null | undefined;
  /** Keys of the providers whose votes it takes; empty = every provider */
  providers?: Array<string> | null | undefined;
  /** votifier: protocol v1: the RSA public key (PEM or base64) */
  publicKey?: string | null | undefined;
  /** amqp: a durable queue to declare and publish to (or give exchange) */
  queue?: string | null | undefined;
  /** rcon: before a vote’s commands run, `list` must show the player; an offline player’s vote is parked until they join */
  requireOnline?: boolean | null | undefined;
  /** discord_role: the role each voter gets (the bot’s own role must be above it) */
  roleId?: string | null | undefined;
  /** amqp: with exchange: the routing key */
  routingKey?: string | null | undefined;
  /** votifier: the service name the server sees */
  serviceName?: string | null | undefined;
  /** redis_stream: the stream key */
  stream?: string | null | undefined;
  /** nats: a subject a JetStream stream takes */
  subject?: string | null | undefined;
  timeoutMs?: number | null | undefined;
  /** votifier: protocol v2: the server token (NuVotifier config.yml, tokens.default); never returned; nats: its auth token; never returned */
  token?: string | null | undefined;
  /** mqtt: the topic to publish to */
  topic?: string | null | undefined;
  /** http: where each delivery is POSTed; redis_stream: the broker (redis:// or rediss://); kept encrypted, read back without its password; amqp: the broker (amqp:// or amqps://); kept encrypted, read back without its password; nats: the broker (nats:// or tls://); kept encrypted, read back without its password; mqtt: the broker (mqtt:// or mqtts://); kept encrypted, read back without its password */
  url?: string | null | undefined;
  /** nats: its user name (with a password); mqtt: its user name (with a password) */
  username?: string | null | undefined;
};

export type UpdateOrganizationInput = {
  name?: string | null | undefined;
  settings?: OrganizationSettingsInput | null | undefined;
  slug?: string | null | undefined;
};

export type UpdateProviderInput = {
  /** top.gg providers: the project's API token, to recover votes the hook missed; never returned; null removes it */
  apiToken?: string | null | undefined;
  authField?: string | null | undefined;
  authTimestampField?: string | null | undefined;
  /** Seconds; an older body timestamp is refused (default 300) */
  bodyTimestampMaxAge?: number | null | undefined;
  /** A timestamp in the signed body (dotted path; epoch s or ms, or ISO 8601); null turns the check off */
  bodyTimestampPath?: string | null | undefined;
  /** Where the voter's Discord user id is in the body (dotted path); null: none */
  discordIdPath?: string | null | undefined;
  enabled?: boolean | null | undefined;
  eventPath?: string | null | undefined;
  key?: string | null | undefined;
  name?: string | null | undefined;
  /** Default: query for query providers, json otherwise */
  payloadSource?: PayloadSource | null | undefined;
  /** hmac only; default plain */
  signatureFormat?: SignatureFormat | null | undefined;
  testEvents?: Array<string> | null | undefined;
  /** When a voter may vote again on the site: {"hours": N}, {"minutes": N}, both, or {"daily_reset": "HH:MM", "time_zone": "<IANA>"}; null: unknown */
  voteCooldown?: unknown;
  voteEvents?: Array<string> | null | undefined;
  /** The site's vote page for reminders (http(s); may hold variables such as {{payload.bot}}); null: none */
  voteUrl?: string | null | undefined;
  voteePath?: string | null | undefined;
  /** Where the voter's IP address is in the body (dotted path); null: none */
  voterAddressPath?: string | null | undefined;
  /** What the name at voteePath is */
  voterKind?: VoterKind | null | undefined;
  /** votifier only: a port of its own within VOTIFIER_DEDICATED_PORTS; null goes back to the shared port */
  votifierPort?: number | null | undefined;
};

export type VotePageInput = {
  enabled: boolean;
  /** List the last 30 days' top voters (default false) */
  showLeaderboard?: boolean | null | undefined;
  /** At most 80 characters; null: "Vote for <organization name>" */
  title?: string | null | undefined;
};

/** How a voter is known (README "Voters"): discord (a user id), minecraft (a Java name), minecraft_uuid, bedrock (a name with the organization's bedrockPrefix), hytale, name (any other name) */
export type VoterIdentityKind =
  | 'bedrock'
  | 'discord'
  | 'hytale'
  | 'minecraft'
  | 'minecraft_uuid'
  | 'name';

/** What a provider's voter name is (README "Voters") */
export type VoterKind =
  | 'discord'
  | 'hytale'
  | 'minecraft'
  | 'name';

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { scope: Scope } | null, organization: { name: string, slug: string, plan: Plan } | null };

export type PluginTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type PluginTokensQuery = { pluginTokens: { waiting: number, parked: number, tokens: Array<{ id: string, name: string, prefix: string, connection: PluginConnection, lastPollAt: string | null, createdAt: string, parked: number }> } | null };

export type ParkedVotesQueryVariables = Exact<{
  tokenId: string | number;
  page?: number | null | undefined;
}>;


export type ParkedVotesQuery = { parkedVotes: { page: number, pages: number, total: number, votes: Array<{ id: string, voterName: string, providerName: string, receivedAt: string, parkedAt: string, test: boolean }> } | null };

export type CreatePluginTokenMutationVariables = Exact<{
  name: string;
}>;


export type CreatePluginTokenMutation = { createPluginToken: { id: string, name: string, token: string } | null };

export type RevokePluginTokenMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokePluginTokenMutation = { revokePluginToken: { id: string } | null };

export type OverviewQueryVariables = Exact<{ [key: string]: never; }>;


export type OverviewQuery = { organization: { name: string, plan: Plan, usage: { votesThisMonth: number, votesLimit: number, providersCount: number, providersLimit: number } } | null, dashboardStats: { summary: { today: number, thisWeek: number, thisMonth: number, allTime: number }, byProvider: Array<{ key: string, name: string, count: number }>, dailyTrend: Array<{ date: string, count: number }> } | null, failingCallbacks: Array<{ state: FailingCallbackState, failedAttemptsLast24h: number, retryingDeliveries: number, failedLast24h: number, lastError: string | null, lastFailedAt: string, callback: { id: string, name: string } }> | null, votes: { votes: Array<{ publicId: string, voterName: string, providerKey: string, providerName: string, receivedAt: string, test: boolean }> } | null, voteParty: { enabled: boolean, every: number | null, provider: string | null, count: number, progress: number, remaining: number | null, completed: number } | null, providers: { providers: Array<{ key: string, name: string }> } | null, quietSites: Array<{ providerKey: string, providerName: string, message: string }> | null };

export type LiveVotesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type LiveVotesSubscription = { voteReceived: { publicId: string, voterName: string, providerKey: string, providerName: string, receivedAt: string, test: boolean } };

export type LiveVotePartySubscriptionVariables = Exact<{ [key: string]: never; }>;


export type LiveVotePartySubscription = { votePartyProgress: { enabled: boolean, every: number | null, provider: string | null, count: number, progress: number, remaining: number | null, completed: number } };

export type StatisticsQueryVariables = Exact<{
  from?: string | null | undefined;
  to?: string | null | undefined;
  granularity?: Granularity | null | undefined;
}>;


export type StatisticsQuery = { voteTrend: { granularity: Granularity, trend: Array<{ date: string, count: number }> } | null, votesByProvider: { total: number, providers: Array<{ key: string, name: string, count: number, percentage: number }> } | null, conversionStats: { sites: Array<{ provider: string, name: string, clicks: number, votes: number, convertedClicks: number, conversion: number | null, medianSecondsToVote: number | null }> } | null };

export type LeaderboardQueryVariables = Exact<{
  days?: number | null | undefined;
}>;


export type LeaderboardQuery = { leaderboard: { voters: Array<{ name: string, votes: number, lastVote: string }> } | null };

export type VoterPageQueryVariables = Exact<{
  name: string;
}>;


export type VoterPageQuery = { voterStats: { voterName: string, summary: { total: number, today: number, thisWeek: number, thisMonth: number, firstVote: string | null, lastVote: string | null }, byProvider: Array<{ key: string, name: string, count: number }>, standing: { streakDays: number, bestStreakDays: number, monthTotal: number, timeZone: string, sites: Array<{ key: string, name: string, total: number, nextVoteAt: string | null }> } | null } | null };

export type VoteDetailQueryVariables = Exact<{
  publicId: string;
}>;


export type VoteDetailQuery = { vote: { publicId: string, voterName: string, voterId: string | null, repairedFrom: string | null, providerName: string, providerKey: string, receivedAt: string, chatStatus: DeliveryStatus, callbackStatus: DeliveryStatus, callbackAttempts: number, recovered: boolean, test: boolean, deliveryJobs: Array<{ id: string, kind: DeliveryJobKind, event: string | null, origin: DeliveryJobOrigin, target: string | null, status: DeliveryJobStatus, attempts: number, maxAttempts: number, nextAttemptAt: string | null, lastError: string | null, sentAt: string | null }>, deliveryAttempts: Array<{ id: string, jobId: string, kind: DeliveryJobKind, event: string | null, attempt: number, target: string, pluginToken: string | null, statusCode: number | null, success: boolean, durationMs: number, pacedMs: number, error: string | null, responseExcerpt: string | null, createdAt: string }> } | null };

export type RedeliverVoteMutationVariables = Exact<{
  publicId: string;
}>;


export type RedeliverVoteMutation = { redeliverVote: { voteId: string, requeued: number } | null };

export type VotesQueryVariables = Exact<{
  page?: number | null | undefined;
  provider?: string | null | undefined;
  voter?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  chatStatus?: DeliveryStatus | null | undefined;
  callbackStatus?: DeliveryStatus | null | undefined;
}>;


export type VotesQuery = { votes: { page: number, pages: number, total: number, votes: Array<{ publicId: string, voterName: string, providerKey: string, providerName: string, receivedAt: string, chatStatus: DeliveryStatus, callbackStatus: DeliveryStatus, test: boolean }> } | null, providers: { providers: Array<{ key: string, name: string }> } | null };

export type UncertainVotesQueryVariables = Exact<{ [key: string]: never; }>;


export type UncertainVotesQuery = { callbacks: { total: number } | null, chat: { total: number } | null };

export type ResendVoteMutationVariables = Exact<{
  publicId: string;
}>;


export type ResendVoteMutation = { redeliverVote: { voteId: string, requeued: number } | null };

export type CallbacksQueryVariables = Exact<{ [key: string]: never; }>;


export type CallbacksQuery = { callbacks: { count: number, limit: number, callbacks: Array<{ id: string, name: string, kind: CallbackKind, target: string, enabled: boolean, priority: number, timeoutMs: number, events: Array<CallbackEvent>, providers: Array<string>, allProviders: boolean, maxPerSecond: number | null, disabledReason: string | null, disabledAt: string | null }> } | null, callbackKinds: Array<{ name: CallbackKind, label: string, description: string, events: Array<CallbackEvent>, signed: boolean, marksTests: boolean, settings: Array<{ name: string, restName: string, type: CallbackSettingType, label: string, help: string, required: boolean, nullable: boolean, secret: boolean, readAs: string, widget: string, placeholder: string | null, default: unknown }> }> | null, callbackVariables: Array<{ name: string, description: string, example: string, events: Array<CallbackEvent> }> | null, providers: { providers: Array<{ key: string, name: string }> } | null };

export type DeleteCallbackMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteCallbackMutation = { deleteCallback: { id: string } | null };

export type RotateCallbackSecretMutationVariables = Exact<{
  id: string | number;
}>;


export type RotateCallbackSecretMutation = { rotateCallbackSecret: { id: string, signingSecret: string } | null };

export type TestCallbackMutationVariables = Exact<{
  id: string | number;
}>;


export type TestCallbackMutation = { testCallback: { url: string, method: string, headers: unknown, payload: unknown, sent: boolean, message: string | null } | null };

export type ReplayCallbackMutationVariables = Exact<{
  id: string | number;
  since: string;
  until?: string | null | undefined;
  onlyFailed?: boolean | null | undefined;
}>;


export type ReplayCallbackMutation = { replayCallback: { callbackId: string, queued: number, since: string, until: string, onlyFailed: boolean } | null };

export type CreateCallbackMutationVariables = Exact<{
  input: CreateCallbackInput;
}>;


export type CreateCallbackMutation = { createCallback: { signingSecret: string | null, callback: { id: string, name: string, kind: CallbackKind } } | null };

export type UpdateCallbackMutationVariables = Exact<{
  id: string | number;
  input: UpdateCallbackInput;
}>;


export type UpdateCallbackMutation = { updateCallback: { id: string, name: string, target: string, enabled: boolean, priority: number, timeoutMs: number, events: Array<CallbackEvent>, providers: Array<string>, allProviders: boolean, maxPerSecond: number | null, disabledReason: string | null, disabledAt: string | null } | null };

export type DiscordRoleGrantsQueryVariables = Exact<{
  page?: number | null | undefined;
  status?: DiscordRoleGrantStatus | null | undefined;
}>;


export type DiscordRoleGrantsQuery = { discordRoleGrants: { total: number, page: number, limit: number, grants: Array<{ voter: string, discordId: string, roleId: string, callbackId: string, status: DiscordRoleGrantStatus, expiresAt: string, lastError: string | null, updatedAt: string }> } | null, organization: { id: string, settings: { discordBotTokenSet: boolean, discordGuildId: string | null } } | null };

export type CallbackSettingFieldsFragment = { name: string, restName: string, type: CallbackSettingType, label: string, help: string, required: boolean, nullable: boolean, secret: boolean, readAs: string, widget: string, placeholder: string | null, default: unknown };

export type CallbackKindFieldsFragment = { name: CallbackKind, label: string, description: string, events: Array<CallbackEvent>, signed: boolean, marksTests: boolean, settings: Array<{ name: string, restName: string, type: CallbackSettingType, label: string, help: string, required: boolean, nullable: boolean, secret: boolean, readAs: string, widget: string, placeholder: string | null, default: unknown }> };

export type AddProviderChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type AddProviderChoicesQuery = { organization: { slug: string, hookBaseUrl: string, hookAddressWarning: string | null, votifierAddressWarning: string | null } | null, templates: Array<{ id: string, slug: string, name: string, description: string, websiteUrl: string, authMethod: AuthMethod, authField: string, authKeySource: string | null, setupInstructions: string }>, providers: { count: number, limit: number, providers: Array<{ key: string, webhookUrl: string }> } | null };

export type CreateProviderMutationVariables = Exact<{
  input: CreateProviderInput;
}>;


export type CreateProviderMutation = { createProvider: { id: string, key: string, name: string, authMethod: AuthMethod, authValue: string, webhookUrl: string, votifier: { host: string, port: number, publicKey: string, token: string | null } | null, provider: { authField: string, authTimestampField: string | null, signatureFormat: SignatureFormat | null, payloadSource: PayloadSource, voteePath: string } } | null };

export type EditProviderMutationVariables = Exact<{
  key: string;
  input: UpdateProviderInput;
}>;


export type EditProviderMutation = { updateProvider: { id: string, key: string, name: string, webhookUrl: string } | null };

export type ProviderRequestsQueryVariables = Exact<{
  key: string;
  outcome?: HookRequestOutcome | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ProviderRequestsQuery = { provider: { id: string, key: string, name: string, authMethod: AuthMethod, authField: string, webhookUrl: string, requests: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { id: string, receivedAt: string, clientIp: string, method: string, path: string, protocol: HookRequestProtocol, outcome: HookRequestOutcome, status: number, errorCode: string | null, reason: string | null, hint: string | null, voterName: string | null, voteId: string | null, durationMs: number, headers: unknown, body: string, bodyBytes: number, providerKey: string } }> }, requestDrops: Array<{ clientIp: string, count: number, firstAt: string, lastAt: string }> } | null };

export type LiveProviderRequestsSubscriptionVariables = Exact<{
  provider?: string | null | undefined;
}>;


export type LiveProviderRequestsSubscription = { hookRequestReceived: { id: string, receivedAt: string, clientIp: string, method: string, path: string, protocol: HookRequestProtocol, outcome: HookRequestOutcome, status: number, errorCode: string | null, reason: string | null, hint: string | null, voterName: string | null, voteId: string | null, durationMs: number, headers: unknown, body: string, bodyBytes: number, providerKey: string } };

export type ProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type ProvidersQuery = { organization: { hookAddressWarning: string | null, votifierAddressWarning: string | null } | null, providers: { count: number, limit: number, providers: Array<{ id: string, key: string, name: string, template: string | null, authMethod: AuthMethod, enabled: boolean, webhookUrl: string, votesToday: number, votesTotal: number, authField: string, authTimestampField: string | null, signatureFormat: SignatureFormat | null, payloadSource: PayloadSource, voteePath: string, eventPath: string | null, voteEvents: Array<string> | null, testEvents: Array<string> | null, votifier: { host: string, port: number, publicKey: string } | null, recovery: { enabled: boolean, checkedAt: string | null, since: string | null, error: string | null } | null }> } | null };

export type SetProviderEnabledMutationVariables = Exact<{
  key: string;
  enabled: boolean;
}>;


export type SetProviderEnabledMutation = { updateProvider: { id: string, enabled: boolean } | null };

export type RegenerateProviderSecretMutationVariables = Exact<{
  key: string;
}>;


export type RegenerateProviderSecretMutation = { regenerateProviderSecret: { authValue: string, webhookUrl: string, votifier: { host: string, port: number, publicKey: string, token: string | null } | null } | null };

export type DeleteProviderMutationVariables = Exact<{
  key: string;
}>;


export type DeleteProviderMutation = { deleteProvider: { message: string, votesDeleted: number } | null };

export type SetProviderApiTokenMutationVariables = Exact<{
  key: string;
  apiToken?: string | null | undefined;
}>;


export type SetProviderApiTokenMutation = { updateProvider: { id: string, recovery: { enabled: boolean, checkedAt: string | null, since: string | null, error: string | null } | null } | null };

export type SendTestVoteMutationVariables = Exact<{
  key: string;
  voterName?: string | null | undefined;
  deliverToGameServers?: boolean | null | undefined;
}>;


export type SendTestVoteMutation = { sendTestVote: { received: boolean, voteId: string | null, duplicate: boolean | null, test: boolean | null, ignored: boolean | null, testVote: boolean | null, voterName: string | null, deliverToGameServers: boolean | null } | null };

export type UnmatchedRequestsQueryVariables = Exact<{
  outcome?: HookRequestOutcome | null | undefined;
  page?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type UnmatchedRequestsQuery = { hookRequests: { page: number, pages: number, total: number, requests: Array<{ id: string, receivedAt: string, clientIp: string, method: string, path: string, protocol: HookRequestProtocol, outcome: HookRequestOutcome, status: number, errorCode: string | null, reason: string | null, hint: string | null, voterName: string | null, voteId: string | null, durationMs: number, headers: unknown, body: string, bodyBytes: number, providerKey: string }>, dropped: Array<{ clientIp: string, count: number, firstAt: string, lastAt: string }> } | null };

export type LiveOrganizationRequestsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type LiveOrganizationRequestsSubscription = { hookRequestReceived: { id: string, receivedAt: string, clientIp: string, method: string, path: string, protocol: HookRequestProtocol, outcome: HookRequestOutcome, status: number, errorCode: string | null, reason: string | null, hint: string | null, voterName: string | null, voteId: string | null, durationMs: number, headers: unknown, body: string, bodyBytes: number, providerKey: string, matched: boolean } };

export type RewardSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type RewardSettingsQuery = { organization: { id: string, slug: string, settings: { votePartyEvery: number | null, votePartyProvider: string | null, chatMilestoneTemplate: string | null, chatVotePartyTemplate: string | null, remindersEnabled: boolean, chatWebhookUrl: string | null, chatNotificationsEnabled: boolean, bedrockPrefix: string | null, votePage: { enabled: boolean, title: string | null, showLeaderboard: boolean } | null, milestones: Array<{ type: MilestoneType, every: number | null, at: Array<number> | null, provider: string | null }> } } | null, providers: { providers: Array<{ key: string, name: string }> } | null, voteParty: { enabled: boolean, every: number | null, progress: number, completed: number } | null, callbackVariables: Array<{ name: string, example: string }> | null };

export type SettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type SettingsQuery = { organization: { name: string, slug: string, plan: Plan, settings: { chatWebhookUrl: string | null, chatNotificationsEnabled: boolean, chatMessageType: ChatMessageType, chatMessageTemplate: string, chatEmbedTemplate: unknown, chatAdminWebhookUrl: string | null, adminDailySummary: boolean, adminWeeklySummary: boolean, adminVoteSpikeAlerts: boolean, adminPermanentFailAlerts: boolean, adminUsageWarnings: boolean } } | null };

export type UpdateOrganizationMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateOrganizationMutation = { updateOrganization: { name: string, slug: string, settings: { chatWebhookUrl: string | null, chatNotificationsEnabled: boolean, chatMessageType: ChatMessageType, chatMessageTemplate: string, chatEmbedTemplate: unknown, chatAdminWebhookUrl: string | null, adminDailySummary: boolean, adminWeeklySummary: boolean, adminVoteSpikeAlerts: boolean, adminPermanentFailAlerts: boolean, adminUsageWarnings: boolean } } | null };

export type TestChatWebhookMutationVariables = Exact<{
  input: TestChatWebhookInput;
}>;


export type TestChatWebhookMutation = { testChatWebhook: { success: boolean, message: string } | null };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, name: string, prefix: string, scope: Scope, lastUsedAt: string | null, createdAt: string }> | null };

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type CreateApiKeyMutation = { createApiKey: { id: string, name: string, key: string, scope: Scope } | null };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string } | null };

export type UpdateBedrockPrefixMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateBedrockPrefixMutation = { updateOrganization: { id: string, settings: { bedrockPrefix: string | null } } | null };

export type DiscordSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type DiscordSettingsQuery = { organization: { id: string, settings: { discordBotTokenSet: boolean, discordGuildId: string | null, timeZone: string, chatWebhookUrl: string | null, leaderboardPosts: { period: LeaderboardPeriod, top: number, at: string } | null } } | null };

export type UpdateDiscordBotMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateDiscordBotMutation = { updateOrganization: { id: string, settings: { discordBotTokenSet: boolean, discordGuildId: string | null } } | null };

export type UpdateLeaderboardPostsMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateLeaderboardPostsMutation = { updateOrganization: { id: string, settings: { leaderboardPosts: { period: LeaderboardPeriod, top: number, at: string } | null } } | null };

export type UpdateEventMessagesMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateEventMessagesMutation = { updateOrganization: { id: string, settings: { chatMilestoneTemplate: string | null, chatVotePartyTemplate: string | null } } | null };

export type UpdateMilestonesMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateMilestonesMutation = { updateOrganization: { id: string, settings: { milestones: Array<{ type: MilestoneType, every: number | null, at: Array<number> | null, provider: string | null }> } } | null };

export type UpdateRemindersMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateRemindersMutation = { updateOrganization: { id: string, settings: { remindersEnabled: boolean } } | null };

export type ReminderOptOutsQueryVariables = Exact<{
  page?: number | null | undefined;
}>;


export type ReminderOptOutsQuery = { reminderOptOuts: { total: number, page: number, limit: number, optOuts: Array<{ voterName: string, createdAt: string }> } | null };

export type SetVoterRemindersMutationVariables = Exact<{
  voterName: string;
  enabled: boolean;
}>;


export type SetVoterRemindersMutation = { setVoterReminders: { voterName: string, enabled: boolean } | null };

export type UpdateVotePageMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateVotePageMutation = { updateOrganization: { id: string, settings: { votePage: { enabled: boolean, title: string | null, showLeaderboard: boolean } | null } } | null };

export type UpdateVotePartyMutationVariables = Exact<{
  input: UpdateOrganizationInput;
}>;


export type UpdateVotePartyMutation = { updateOrganization: { id: string, settings: { votePartyEvery: number | null, votePartyProvider: string | null } } | null };

export type VoterDetailQueryVariables = Exact<{
  id: string;
  after?: string | null | undefined;
}>;


export type VoterDetailQuery = { voter: { id: string, displayName: string, createdAt: string, identities: Array<{ kind: VoterIdentityKind, value: string, createdAt: string }>, standing: { total: number, monthTotal: number, streakDays: number, bestStreakDays: number, lastVoteAt: string, timeZone: string, sites: Array<{ key: string, name: string, total: number, lastVoteAt: string, nextVoteAt: string | null }> } | null, votes: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { publicId: string, voterName: string, repairedFrom: string | null, providerName: string, receivedAt: string, chatStatus: DeliveryStatus, callbackStatus: DeliveryStatus, test: boolean } }> } } | null };

export type FindVotersToMergeQueryVariables = Exact<{
  search: string;
}>;


export type FindVotersToMergeQuery = { voters: { total: number, voters: Array<{ id: string, displayName: string, identities: Array<{ kind: VoterIdentityKind, value: string }>, standing: { total: number } | null }> } | null };

export type MergeVotersMutationVariables = Exact<{
  id: string;
  other: string;
}>;


export type MergeVotersMutation = { mergeVoters: { id: string, displayName: string } | null };

export type SplitVoterIdentityMutationVariables = Exact<{
  id: string;
  kind: VoterIdentityKind;
  value: string;
}>;


export type SplitVoterIdentityMutation = { splitVoterIdentity: { id: string, displayName: string } | null };

export type VotersQueryVariables = Exact<{
  search?: string | null | undefined;
  page?: number | null | undefined;
}>;


export type VotersQuery = { voters: { page: number, pages: number, total: number, voters: Array<{ id: string, displayName: string, identities: Array<{ kind: VoterIdentityKind, value: string }>, standing: { total: number, streakDays: number, lastVoteAt: string } | null }> } | null };

export const CallbackSettingFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CallbackSettingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CallbackSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"restName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"help"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"nullable"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"readAs"}},{"kind":"Field","name":{"kind":"Name","value":"widget"}},{"kind":"Field","name":{"kind":"Name","value":"placeholder"}},{"kind":"Field","name":{"kind":"Name","value":"default"}}]}}]} as unknown as DocumentNode<CallbackSettingFieldsFragment, unknown>;
export const CallbackKindFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CallbackKindFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CallbackKindInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"signed"}},{"kind":"Field","name":{"kind":"Name","value":"marksTests"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CallbackSettingFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CallbackSettingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CallbackSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"restName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"help"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"nullable"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"readAs"}},{"kind":"Field","name":{"kind":"Name","value":"widget"}},{"kind":"Field","name":{"kind":"Name","value":"placeholder"}},{"kind":"Field","name":{"kind":"Name","value":"default"}}]}}]} as unknown as DocumentNode<CallbackKindFieldsFragment, unknown>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const PluginTokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PluginTokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pluginTokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"parked"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"connection"}},{"kind":"Field","name":{"kind":"Name","value":"lastPollAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"parked"}}]}}]}}]}}]} as unknown as DocumentNode<PluginTokensQuery, PluginTokensQueryVariables>;
export const ParkedVotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ParkedVotes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parkedVotes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"tokenId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}}},{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"pages"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"votes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"parkedAt"}},{"kind":"Field","name":{"kind":"Name","value":"test"}}]}}]}}]}}]} as unknown as DocumentNode<ParkedVotesQuery, ParkedVotesQueryVariables>;
export const CreatePluginTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreatePluginToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createPluginToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<CreatePluginTokenMutation, CreatePluginTokenMutationVariables>;
export const RevokePluginTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokePluginToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokePluginToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<RevokePluginTokenMutation, RevokePluginTokenMutationVariables>;
export const OverviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Overview"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votesThisMonth"}},{"kind":"Field","name":{"kind":"Name","value":"votesLimit"}},{"kind":"Field","name":{"kind":"Name","value":"providersCount"}},{"kind":"Field","name":{"kind":"Name","value":"providersLimit"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"dashboardStats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"today"}},{"kind":"Field","name":{"kind":"Name","value":"thisWeek"}},{"kind":"Field","name":{"kind":"Name","value":"thisMonth"}},{"kind":"Field","name":{"kind":"Name","value":"allTime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"byProvider"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dailyTrend"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"failingCallbacks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callback"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"failedAttemptsLast24h"}},{"kind":"Field","name":{"kind":"Name","value":"retryingDeliveries"}},{"kind":"Field","name":{"kind":"Name","value":"failedLast24h"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastFailedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"test"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"voteParty"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"every"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"quietSites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<OverviewQuery, OverviewQueryVariables>;
export const LiveVotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveVotes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voteReceived"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"test"}}]}}]}}]} as unknown as DocumentNode<LiveVotesSubscription, LiveVotesSubscriptionVariables>;
export const LiveVotePartyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveVoteParty"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votePartyProgress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"every"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}}]}}]}}]} as unknown as DocumentNode<LiveVotePartySubscription, LiveVotePartySubscriptionVariables>;
export const StatisticsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Statistics"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"granularity"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Granularity"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voteTrend"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"granularity"},"value":{"kind":"Variable","name":{"kind":"Name","value":"granularity"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"granularity"}},{"kind":"Field","name":{"kind":"Name","value":"trend"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"votesByProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"percentage"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"conversionStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"clicks"}},{"kind":"Field","name":{"kind":"Name","value":"votes"}},{"kind":"Field","name":{"kind":"Name","value":"convertedClicks"}},{"kind":"Field","name":{"kind":"Name","value":"conversion"}},{"kind":"Field","name":{"kind":"Name","value":"medianSecondsToVote"}}]}}]}}]}}]} as unknown as DocumentNode<StatisticsQuery, StatisticsQueryVariables>;
export const LeaderboardDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Leaderboard"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"days"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaderboard"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"days"},"value":{"kind":"Variable","name":{"kind":"Name","value":"days"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"25"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"votes"}},{"kind":"Field","name":{"kind":"Name","value":"lastVote"}}]}}]}}]}}]} as unknown as DocumentNode<LeaderboardQuery, LeaderboardQueryVariables>;
export const VoterPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VoterPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voterStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"voterName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"today"}},{"kind":"Field","name":{"kind":"Name","value":"thisWeek"}},{"kind":"Field","name":{"kind":"Name","value":"thisMonth"}},{"kind":"Field","name":{"kind":"Name","value":"firstVote"}},{"kind":"Field","name":{"kind":"Name","value":"lastVote"}}]}},{"kind":"Field","name":{"kind":"Name","value":"byProvider"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"standing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"streakDays"}},{"kind":"Field","name":{"kind":"Name","value":"bestStreakDays"}},{"kind":"Field","name":{"kind":"Name","value":"monthTotal"}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"sites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"nextVoteAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<VoterPageQuery, VoterPageQueryVariables>;
export const VoteDetailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VoteDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"publicId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"vote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"publicId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"publicId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"voterId"}},{"kind":"Field","name":{"kind":"Name","value":"repairedFrom"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"chatStatus"}},{"kind":"Field","name":{"kind":"Name","value":"callbackStatus"}},{"kind":"Field","name":{"kind":"Name","value":"callbackAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"recovered"}},{"kind":"Field","name":{"kind":"Name","value":"test"}},{"kind":"Field","name":{"kind":"Name","value":"deliveryJobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"sentAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deliveryAttempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"jobId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"pluginToken"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"pacedMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"responseExcerpt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<VoteDetailQuery, VoteDetailQueryVariables>;
export const RedeliverVoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RedeliverVote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"publicId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverVote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"publicId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"publicId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"requeued"}}]}}]}}]} as unknown as DocumentNode<RedeliverVoteMutation, RedeliverVoteMutationVariables>;
export const VotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Votes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"voter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"chatStatus"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DeliveryStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"callbackStatus"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DeliveryStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"25"}},{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"voter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"voter"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"chatStatus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"chatStatus"}}},{"kind":"Argument","name":{"kind":"Name","value":"callbackStatus"},"value":{"kind":"Variable","name":{"kind":"Name","value":"callbackStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"pages"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"votes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"chatStatus"}},{"kind":"Field","name":{"kind":"Name","value":"callbackStatus"}},{"kind":"Field","name":{"kind":"Name","value":"test"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<VotesQuery, VotesQueryVariables>;
export const UncertainVotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UncertainVotes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"callbacks"},"name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"callbackStatus"},"value":{"kind":"EnumValue","value":"uncertain"}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"chat"},"name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"chatStatus"},"value":{"kind":"EnumValue","value":"uncertain"}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]} as unknown as DocumentNode<UncertainVotesQuery, UncertainVotesQueryVariables>;
export const ResendVoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ResendVote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"publicId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverVote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"publicId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"publicId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"requeued"}}]}}]}}]} as unknown as DocumentNode<ResendVoteMutation, ResendVoteMutationVariables>;
export const CallbacksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Callbacks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callbacks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"includeDisabled"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"callbacks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"providers"}},{"kind":"Field","name":{"kind":"Name","value":"allProviders"}},{"kind":"Field","name":{"kind":"Name","value":"maxPerSecond"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"disabledAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"callbackKinds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CallbackKindFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"callbackVariables"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"example"}},{"kind":"Field","name":{"kind":"Name","value":"events"}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CallbackSettingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CallbackSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"restName"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"help"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"nullable"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"readAs"}},{"kind":"Field","name":{"kind":"Name","value":"widget"}},{"kind":"Field","name":{"kind":"Name","value":"placeholder"}},{"kind":"Field","name":{"kind":"Name","value":"default"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CallbackKindFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CallbackKindInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"signed"}},{"kind":"Field","name":{"kind":"Name","value":"marksTests"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CallbackSettingFields"}}]}}]}}]} as unknown as DocumentNode<CallbacksQuery, CallbacksQueryVariables>;
export const DeleteCallbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteCallback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteCallback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<DeleteCallbackMutation, DeleteCallbackMutationVariables>;
export const RotateCallbackSecretDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateCallbackSecret"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateCallbackSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"signingSecret"}}]}}]}}]} as unknown as DocumentNode<RotateCallbackSecretMutation, RotateCallbackSecretMutationVariables>;
export const TestCallbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TestCallback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"testCallback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"headers"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"sent"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<TestCallbackMutation, TestCallbackMutationVariables>;
export const ReplayCallbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReplayCallback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"until"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"onlyFailed"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayCallback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"until"},"value":{"kind":"Variable","name":{"kind":"Name","value":"until"}}},{"kind":"Argument","name":{"kind":"Name","value":"onlyFailed"},"value":{"kind":"Variable","name":{"kind":"Name","value":"onlyFailed"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callbackId"}},{"kind":"Field","name":{"kind":"Name","value":"queued"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"until"}},{"kind":"Field","name":{"kind":"Name","value":"onlyFailed"}}]}}]}}]} as unknown as DocumentNode<ReplayCallbackMutation, ReplayCallbackMutationVariables>;
export const CreateCallbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateCallback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateCallbackInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createCallback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"signingSecret"}},{"kind":"Field","name":{"kind":"Name","value":"callback"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}}]}}]} as unknown as DocumentNode<CreateCallbackMutation, CreateCallbackMutationVariables>;
export const UpdateCallbackDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateCallback"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateCallbackInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateCallback"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"target"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"providers"}},{"kind":"Field","name":{"kind":"Name","value":"allProviders"}},{"kind":"Field","name":{"kind":"Name","value":"maxPerSecond"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"disabledAt"}}]}}]}}]} as unknown as DocumentNode<UpdateCallbackMutation, UpdateCallbackMutationVariables>;
export const DiscordRoleGrantsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DiscordRoleGrants"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DiscordRoleGrantStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discordRoleGrants"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"grants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voter"}},{"kind":"Field","name":{"kind":"Name","value":"discordId"}},{"kind":"Field","name":{"kind":"Name","value":"roleId"}},{"kind":"Field","name":{"kind":"Name","value":"callbackId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discordBotTokenSet"}},{"kind":"Field","name":{"kind":"Name","value":"discordGuildId"}}]}}]}}]}}]} as unknown as DocumentNode<DiscordRoleGrantsQuery, DiscordRoleGrantsQueryVariables>;
export const AddProviderChoicesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AddProviderChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"hookBaseUrl"}},{"kind":"Field","name":{"kind":"Name","value":"hookAddressWarning"}},{"kind":"Field","name":{"kind":"Name","value":"votifierAddressWarning"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"websiteUrl"}},{"kind":"Field","name":{"kind":"Name","value":"authMethod"}},{"kind":"Field","name":{"kind":"Name","value":"authField"}},{"kind":"Field","name":{"kind":"Name","value":"authKeySource"}},{"kind":"Field","name":{"kind":"Name","value":"setupInstructions"}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}}]}}]}}]}}]} as unknown as DocumentNode<AddProviderChoicesQuery, AddProviderChoicesQueryVariables>;
export const CreateProviderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProvider"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProviderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authMethod"}},{"kind":"Field","name":{"kind":"Name","value":"authValue"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"votifier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"host"}},{"kind":"Field","name":{"kind":"Name","value":"port"}},{"kind":"Field","name":{"kind":"Name","value":"publicKey"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}},{"kind":"Field","name":{"kind":"Name","value":"provider"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authField"}},{"kind":"Field","name":{"kind":"Name","value":"authTimestampField"}},{"kind":"Field","name":{"kind":"Name","value":"signatureFormat"}},{"kind":"Field","name":{"kind":"Name","value":"payloadSource"}},{"kind":"Field","name":{"kind":"Name","value":"voteePath"}}]}}]}}]}}]} as unknown as DocumentNode<CreateProviderMutation, CreateProviderMutationVariables>;
export const EditProviderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EditProvider"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProviderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}}]}}]}}]} as unknown as DocumentNode<EditProviderMutation, EditProviderMutationVariables>;
export const ProviderRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProviderRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"outcome"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"HookRequestOutcome"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authMethod"}},{"kind":"Field","name":{"kind":"Name","value":"authField"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"requests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"outcome"},"value":{"kind":"Variable","name":{"kind":"Name","value":"outcome"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"clientIp"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"protocol"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"headers"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"bodyBytes"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"requestDrops"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clientIp"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"firstAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastAt"}}]}}]}}]}}]} as unknown as DocumentNode<ProviderRequestsQuery, ProviderRequestsQueryVariables>;
export const LiveProviderRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveProviderRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookRequestReceived"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"clientIp"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"protocol"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"headers"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"bodyBytes"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}}]}}]}}]} as unknown as DocumentNode<LiveProviderRequestsSubscription, LiveProviderRequestsSubscriptionVariables>;
export const ProvidersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookAddressWarning"}},{"kind":"Field","name":{"kind":"Name","value":"votifierAddressWarning"}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"template"}},{"kind":"Field","name":{"kind":"Name","value":"authMethod"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"votesToday"}},{"kind":"Field","name":{"kind":"Name","value":"votesTotal"}},{"kind":"Field","name":{"kind":"Name","value":"authField"}},{"kind":"Field","name":{"kind":"Name","value":"authTimestampField"}},{"kind":"Field","name":{"kind":"Name","value":"signatureFormat"}},{"kind":"Field","name":{"kind":"Name","value":"payloadSource"}},{"kind":"Field","name":{"kind":"Name","value":"voteePath"}},{"kind":"Field","name":{"kind":"Name","value":"eventPath"}},{"kind":"Field","name":{"kind":"Name","value":"voteEvents"}},{"kind":"Field","name":{"kind":"Name","value":"testEvents"}},{"kind":"Field","name":{"kind":"Name","value":"votifier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"host"}},{"kind":"Field","name":{"kind":"Name","value":"port"}},{"kind":"Field","name":{"kind":"Name","value":"publicKey"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recovery"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"checkedAt"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ProvidersQuery, ProvidersQueryVariables>;
export const SetProviderEnabledDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetProviderEnabled"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"enabled"},"value":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}}]} as unknown as DocumentNode<SetProviderEnabledMutation, SetProviderEnabledMutationVariables>;
export const RegenerateProviderSecretDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegenerateProviderSecret"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"regenerateProviderSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authValue"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"votifier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"host"}},{"kind":"Field","name":{"kind":"Name","value":"port"}},{"kind":"Field","name":{"kind":"Name","value":"publicKey"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]}}]} as unknown as DocumentNode<RegenerateProviderSecretMutation, RegenerateProviderSecretMutationVariables>;
export const DeleteProviderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteProvider"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"votesDeleted"}}]}}]}}]} as unknown as DocumentNode<DeleteProviderMutation, DeleteProviderMutationVariables>;
export const SetProviderApiTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetProviderApiToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"apiToken"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProvider"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"apiToken"},"value":{"kind":"Variable","name":{"kind":"Name","value":"apiToken"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"recovery"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"checkedAt"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]} as unknown as DocumentNode<SetProviderApiTokenMutation, SetProviderApiTokenMutationVariables>;
export const SendTestVoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendTestVote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"key"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"voterName"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliverToGameServers"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendTestVote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"key"},"value":{"kind":"Variable","name":{"kind":"Name","value":"key"}}},{"kind":"Argument","name":{"kind":"Name","value":"voterName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"voterName"}}},{"kind":"Argument","name":{"kind":"Name","value":"deliverToGameServers"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliverToGameServers"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"received"}},{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"duplicate"}},{"kind":"Field","name":{"kind":"Name","value":"test"}},{"kind":"Field","name":{"kind":"Name","value":"ignored"}},{"kind":"Field","name":{"kind":"Name","value":"testVote"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"deliverToGameServers"}}]}}]}}]} as unknown as DocumentNode<SendTestVoteMutation, SendTestVoteMutationVariables>;
export const UnmatchedRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UnmatchedRequests"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"outcome"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"HookRequestOutcome"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"outcome"},"value":{"kind":"Variable","name":{"kind":"Name","value":"outcome"}}},{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"pages"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"requests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"clientIp"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"protocol"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"headers"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"bodyBytes"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}}]}},{"kind":"Field","name":{"kind":"Name","value":"dropped"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clientIp"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"firstAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastAt"}}]}}]}}]}}]} as unknown as DocumentNode<UnmatchedRequestsQuery, UnmatchedRequestsQueryVariables>;
export const LiveOrganizationRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveOrganizationRequests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookRequestReceived"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"clientIp"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"protocol"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"hint"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"voteId"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"headers"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"bodyBytes"}},{"kind":"Field","name":{"kind":"Name","value":"providerKey"}},{"kind":"Field","name":{"kind":"Name","value":"matched"}}]}}]}}]} as unknown as DocumentNode<LiveOrganizationRequestsSubscription, LiveOrganizationRequestsSubscriptionVariables>;
export const RewardSettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RewardSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votePage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"showLeaderboard"}}]}},{"kind":"Field","name":{"kind":"Name","value":"milestones"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"every"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}}]}},{"kind":"Field","name":{"kind":"Name","value":"votePartyEvery"}},{"kind":"Field","name":{"kind":"Name","value":"votePartyProvider"}},{"kind":"Field","name":{"kind":"Name","value":"chatMilestoneTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"chatVotePartyTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"remindersEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"chatWebhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"chatNotificationsEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"bedrockPrefix"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"providers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"voteParty"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"every"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}}]}},{"kind":"Field","name":{"kind":"Name","value":"callbackVariables"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"example"}}]}}]}}]} as unknown as DocumentNode<RewardSettingsQuery, RewardSettingsQueryVariables>;
export const SettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatWebhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"chatNotificationsEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"chatMessageType"}},{"kind":"Field","name":{"kind":"Name","value":"chatMessageTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"chatEmbedTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"chatAdminWebhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"adminDailySummary"}},{"kind":"Field","name":{"kind":"Name","value":"adminWeeklySummary"}},{"kind":"Field","name":{"kind":"Name","value":"adminVoteSpikeAlerts"}},{"kind":"Field","name":{"kind":"Name","value":"adminPermanentFailAlerts"}},{"kind":"Field","name":{"kind":"Name","value":"adminUsageWarnings"}}]}}]}}]}}]} as unknown as DocumentNode<SettingsQuery, SettingsQueryVariables>;
export const UpdateOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateOrganization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatWebhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"chatNotificationsEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"chatMessageType"}},{"kind":"Field","name":{"kind":"Name","value":"chatMessageTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"chatEmbedTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"chatAdminWebhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"adminDailySummary"}},{"kind":"Field","name":{"kind":"Name","value":"adminWeeklySummary"}},{"kind":"Field","name":{"kind":"Name","value":"adminVoteSpikeAlerts"}},{"kind":"Field","name":{"kind":"Name","value":"adminPermanentFailAlerts"}},{"kind":"Field","name":{"kind":"Name","value":"adminUsageWarnings"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateOrganizationMutation, UpdateOrganizationMutationVariables>;
export const TestChatWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TestChatWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TestChatWebhookInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"testChatWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<TestChatWebhookMutation, TestChatWebhookMutationVariables>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const UpdateBedrockPrefixDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateBedrockPrefix"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bedrockPrefix"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateBedrockPrefixMutation, UpdateBedrockPrefixMutationVariables>;
export const DiscordSettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DiscordSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discordBotTokenSet"}},{"kind":"Field","name":{"kind":"Name","value":"discordGuildId"}},{"kind":"Field","name":{"kind":"Name","value":"leaderboardPosts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"top"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"chatWebhookUrl"}}]}}]}}]}}]} as unknown as DocumentNode<DiscordSettingsQuery, DiscordSettingsQueryVariables>;
export const UpdateDiscordBotDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateDiscordBot"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discordBotTokenSet"}},{"kind":"Field","name":{"kind":"Name","value":"discordGuildId"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateDiscordBotMutation, UpdateDiscordBotMutationVariables>;
export const UpdateLeaderboardPostsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateLeaderboardPosts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaderboardPosts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"top"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UpdateLeaderboardPostsMutation, UpdateLeaderboardPostsMutationVariables>;
export const UpdateEventMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateEventMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chatMilestoneTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"chatVotePartyTemplate"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateEventMessagesMutation, UpdateEventMessagesMutationVariables>;
export const UpdateMilestonesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateMilestones"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"milestones"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"every"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UpdateMilestonesMutation, UpdateMilestonesMutationVariables>;
export const UpdateRemindersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateReminders"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"remindersEnabled"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateRemindersMutation, UpdateRemindersMutationVariables>;
export const ReminderOptOutsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReminderOptOuts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reminderOptOuts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"optOuts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<ReminderOptOutsQuery, ReminderOptOutsQueryVariables>;
export const SetVoterRemindersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetVoterReminders"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"voterName"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setVoterReminders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"voterName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"voterName"}}},{"kind":"Argument","name":{"kind":"Name","value":"enabled"},"value":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}}]} as unknown as DocumentNode<SetVoterRemindersMutation, SetVoterRemindersMutationVariables>;
export const UpdateVotePageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateVotePage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votePage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"showLeaderboard"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UpdateVotePageMutation, UpdateVotePageMutationVariables>;
export const UpdateVotePartyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateVoteParty"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"votePartyEvery"}},{"kind":"Field","name":{"kind":"Name","value":"votePartyProvider"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateVotePartyMutation, UpdateVotePartyMutationVariables>;
export const VoterDetailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VoterDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"identities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"standing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"monthTotal"}},{"kind":"Field","name":{"kind":"Name","value":"streakDays"}},{"kind":"Field","name":{"kind":"Name","value":"bestStreakDays"}},{"kind":"Field","name":{"kind":"Name","value":"lastVoteAt"}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"sites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"lastVoteAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextVoteAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"votes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"25"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"voterName"}},{"kind":"Field","name":{"kind":"Name","value":"repairedFrom"}},{"kind":"Field","name":{"kind":"Name","value":"providerName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"chatStatus"}},{"kind":"Field","name":{"kind":"Name","value":"callbackStatus"}},{"kind":"Field","name":{"kind":"Name","value":"test"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<VoterDetailQuery, VoterDetailQueryVariables>;
export const FindVotersToMergeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FindVotersToMerge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"6"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"voters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"identities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"standing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]}}]}}]} as unknown as DocumentNode<FindVotersToMergeQuery, FindVotersToMergeQueryVariables>;
export const MergeVotersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MergeVoters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"other"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mergeVoters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"other"},"value":{"kind":"Variable","name":{"kind":"Name","value":"other"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}}]}}]} as unknown as DocumentNode<MergeVotersMutation, MergeVotersMutationVariables>;
export const SplitVoterIdentityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SplitVoterIdentity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VoterIdentityKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"value"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"splitVoterIdentity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"value"},"value":{"kind":"Variable","name":{"kind":"Name","value":"value"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}}]}}]} as unknown as DocumentNode<SplitVoterIdentityMutation, SplitVoterIdentityMutationVariables>;
export const VotersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Voters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"25"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"pages"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"voters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"identities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"standing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"streakDays"}},{"kind":"Field","name":{"kind":"Name","value":"lastVoteAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<VotersQuery, VotersQueryVariables>;