/**
 * Built-in catalogue of provider templates for real voting sites (GET /v1/templates,
 * POST /v1/providers with `template`). Pure data: no I/O.
 *
 * Each entry records what the site really sends (see the sources named in
 * each `description`). Where no primary source (the site's own docs or official SDK) was found, the
 * description says "unconfirmed" and names the evidence used instead.
 *
 * Event filter (fields `eventPath`, `voteEvents`, `testEvents`), as the relay applies it:
 *  - `eventPath` null: every authenticated delivery is a vote.
 *  - otherwise the value at `eventPath` is read from the payload and compared as a string (booleans become
 *    'true' / 'false', numbers their decimal form);
 *  - a missing (undefined) value counts as a vote;
 *  - a value in `testEvents` is a test ping: answered 200 `{received, test: true}`, nothing recorded;
 *  - when `voteEvents` is non-null, a value not in it is ignored: answered 200 `{received, ignored: true}`.
 * Sites with a boolean test flag (discord.place `test`, DiscordForge `isTest`, Discollab `is_test`) use
 * `voteEvents: null, testEvents: ['true']`: only an explicit `true` is a test, and anything else (false,
 * missing, or a form-encoded 'false') is a vote, so no real vote can be dropped by an unexpected value.
 */

import type { AuthMethod } from '../auth-methods/auth-method.js';
import type { VoteCooldown } from '../../../domain/vote-cooldown.js';
import type { VoterKind } from '../../../domain/voter-identity.js';

/**
 * How the site signs (used by docs and by tests that sign payload examples the way the site does):
 *  'hex'          header value = hex HMAC-SHA256(secret, raw body)
 *  'sha256_hex'   header value = 'sha256=' + hex HMAC-SHA256(secret, signed content)
 *  'topgg'        header value = 't=<unix>,v1=<hex HMAC-SHA256(secret, `${t}.${body}`)>'
 * For 'sha256_hex' with authTimestampField set, the signed content is `${timestamp}.${body}` and the
 * timestamp header carries unix seconds; without it the signed content is the raw body.
 */
export type SignatureFormat = 'hex' | 'sha256_hex' | 'topgg';

export interface ProviderTemplate {
  /** Stable id, e.g. 'tpl_topgg' (never changes once published). */
  id: string;
  /** e.g. 'topgg'; also the default provider `key`. */
  slug: string;
  name: string;
  description: string;
  websiteUrl: string;
  logoUrl: string | null;
  authMethod: AuthMethod;
  /** Header name or query parameter name; for url_path a descriptive name. Never ''. */
  authField: string;
  /** 'generated' when the relay generates the secret (user pastes it into the site); null when the site issues it. */
  authKeySource: 'generated' | null;
  /** Header carrying the signed timestamp (hmac only), or null. */
  authTimestampField: string | null;
  /** Dotted path to the voter's name, e.g. 'data.user.name'. */
  defaultVoteePath: string;
  eventPath: string | null;
  voteEvents: string[] | null;
  testEvents: string[] | null;
  /** How the site delivers (GET sites put fields in the query string). */
  method: 'POST' | 'GET';
  /** Only for hmac. */
  signatureFormat: SignatureFormat | null;
  /** A realistic example of a real vote (for GET sites: the query parameters as an object). */
  payloadExample: Record<string, unknown>;
  /** Short, concrete steps: where to paste the webhook URL and the secret on that site. */
  setupInstructions: string;
  /**
   * A timestamp inside the signed body (dotted path; epoch seconds, milliseconds or ISO 8601) and the oldest age the
   * site asks receivers to accept, in seconds: an older body is a replay and is refused.
   */
  bodyTimestampPath?: string;
  bodyTimestampMaxAgeSeconds?: number;
  /** How long, by the site's documentation, it keeps retrying a delivery we did not acknowledge (seconds). */
  retryHorizonSeconds?: number;
  /** The site has a vote list API that votes missed during an outage are recovered from (src/recovery/). */
  recovery?: 'topgg';
  /** When a voter may vote again, by the site's documentation (README "Rewards"); absent where it does not say. */
  voteCooldown?: VoteCooldown;
  /** The page where a voter votes (reminders carry it), with vote variables where the site sends the id. */
  voteUrl?: string;
  /** Where the voter's Discord user id is in a vote's body (Discord sites; README "Discord rewards"). */
  discordIdPath?: string;
  /** What the name at defaultVoteePath is (README "Voters"): a Discord id, a Minecraft or Hytale name, or any name. */
  voterKind: VoterKind;
  /** Where the voter's IP address is in a vote's body, where the site sends it (README "Voters", name repair). */
  voterAddressPath?: string;
}

const GENERATED_SECRET_STEP = 'Create the provider here with auth_value "auto" (or leave it out) and copy the auth_value shown once in the response.';

/**
 * A list that delivers by the Votifier protocol (docs: README "Votifier lists"): the relay makes the key pair and the
 * token; the list is given host, port, and the public key (v1) or the token (v2). `siteToken`: the list issues the
 * token itself (pasted here as auth_value) and sends v2 over HTTP to the webhook URL.
 */
function votifierList(t: { slug: string; name: string; websiteUrl: string; game: 'Minecraft' | 'Hytale'; how: string; siteToken?: boolean }): ProviderTemplate {
  return {
    id: `tpl_${t.slug.replace(/-/g, '_')}`,
    slug: t.slug,
    name: t.name,
    description: `${t.game} server list that delivers votes by the Votifier protocol. ${t.how}`,
    websiteUrl: t.websiteUrl,
    logoUrl: null,
    authMethod: 'votifier',
    authField: 'votifier',
    authKeySource: t.siteToken ? null : 'generated',
    authTimestampField: null,
    defaultVoteePath: 'username',
    voterKind: t.game === 'Hytale' ? 'hytale' : 'minecraft',
    voterAddressPath: 'address',
    eventPath: null,
    voteEvents: null,
    testEvents: null,
    method: 'POST',
    signatureFormat: null,
    payloadExample: { serviceName: t.name, username: 'Steve', address: '203.0.113.7', timestamp: 1767225600000 },
    setupInstructions: t.siteToken
      ? `Copy the Votifier token ${t.name} shows for your server and paste it here as auth_value. In ${t.name}, set the ` +
        "Votifier endpoint to this provider's webhook_url (Votifier over HTTP)."
      : `Create the provider here and copy what the response's votifier object gives you. In ${t.name}'s server ` +
        'settings, enter votifier.host and votifier.port as the Votifier address and port, and votifier.public_key ' +
        '(protocol v1, the RSA public key) or votifier.token (protocol v2, NuVotifier token) where it asks.',
  };
}

const UNCONFIRMED_VOTIFIER =
  "Unconfirmed: the site's own documentation was not available here; the protocol versions it sends are not " +
  'confirmed, so give it the public key (v1) and, where it has a token field, the token (v2).';

const TEMPLATES: ProviderTemplate[] = [
  {
    id: 'tpl_hytale_servers_pro',
    slug: 'hytale-servers-pro',
    name: 'Hytale-Servers.pro',
    description:
      'Hytale server list. Signs each vote with a hex HMAC-SHA256 of the raw JSON body in X-Webhook-Signature ' +
      "(no prefix), keyed with the Webhook Secret the site shows you. The body carries the voter's Hytale " +
      'username, a millisecond timestamp, the server slug and a vote id; there is no event type or test flag. ' +
      'Source: hytale-servers.pro/blog/docs-custom-webhook.',
    websiteUrl: 'https://hytale-servers.pro',
    logoUrl: null,
    authMethod: 'hmac',
    authField: 'X-Webhook-Signature',
    authKeySource: null,
    authTimestampField: null,
    defaultVoteePath: 'hytale_username',
    voterKind: 'hytale',
    eventPath: null,
    voteEvents: null,
    testEvents: null,
    method: 'POST',
    signatureFormat: 'hex',
    payloadExample: {
      hytale_username: 'Player123',
      timestamp: 1767173012059,
      server_slug: 'wDFDtxbf',
      vote_id: '604800b9-473c-40f8-bf4d-6090216e7c3f',
    },
    setupInstructions:
      '1. On Hytale-Servers.pro open your server dashboard and its webhook (vote) settings. ' +
      "2. Paste this provider's webhook URL into the webhook URL field and save. " +
      '3. Copy the Webhook Secret the site shows there. ' +
      '4. Create the provider here from this template with that secret as auth_value.',
    bodyTimestampPath: 'timestamp',
    bodyTimestampMaxAgeSeconds: 300,
  },
  {
    id: 'tpl_hytalecharts',
    slug: 'hytalecharts',
    name: 'HytaleCharts',
    description:
      'Hytale server list. Sends X-HytaleCharts-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>"> ' +
      'with the unix-seconds timestamp in X-HytaleCharts-Timestamp and the event in X-HytaleCharts-Event and in ' +
      'the body field "event" ("vote"); the secret is issued by HytaleCharts. The voter is voter.username ' +
      '(the HytaleCharts account name; voter.discord_id is also sent). Other events (favorite, review) are ' +
      'ignored. Unconfirmed: no HytaleCharts primary reference for the signed webhook was found; the format ' +
      "follows an integrator's public docs (votepipe.com/docs/providers/hytalecharts), and the event value " +
      'sent by the dashboard\'s Test button is assumed to be "test".',
    websiteUrl: 'https://hytalecharts.com',
    logoUrl: null,
    authMethod: 'hmac',
    authField: 'X-HytaleCharts-Signature',
    authKeySource: null,
    authTimestampField: 'X-HytaleCharts-Timestamp',
    defaultVoteePath: 'voter.username',
    voterKind: 'hytale',
    discordIdPath: 'voter.discord_id',
    eventPath: 'event',
    voteEvents: ['vote'],
    testEvents: ['test'],
    method: 'POST',
    signatureFormat: 'sha256_hex',
    payloadExample: {
      event: 'vote',
      voter: {
        username: 'mrkayjaydee',
        discord_id: '370940770225618954',
        last_vote_at: '2026-01-05T07:06:52+00:00',
        discord_username: 'mrkayjaydee',
        total_votes_for_server: 35,
      },
      server_id: 31,
      timestamp: '2026-01-06T07:50:59+00:00',
      server_name: 'Mythlane',
      server_slug: 'mythlane',
      server_stats: { total_votes: 104, weighted_votes: 103 },
    },
    setupInstructions:
      '1. Go to https://hytalecharts.com/dashboard and click Edit Server. ' +
      "2. Paste this provider's webhook URL into the Vote Webhook URL field and click Save at the bottom of the page. " +
      '3. On the same page reveal the Webhook Secret (Show) and copy it. ' +
      '4. Create the provider here from this template with that secret as auth_value, then use Test on HytaleCharts.',
  },
  {
    id: 'tpl_hylist',
    slug: 'hylist',
    name: 'Hylist.io',
    description:
      'Hytale server list. Sends X-Hylist-Signature: sha256=<hex HMAC-SHA256 of the raw JSON body>, keyed with ' +
      'a secret you paste into Hylist (the relay generates it). The body field "event" is "vote" for votes and ' +
      '"test" for the dashboard test; the voter is "username". Unconfirmed: no Hylist.io primary reference was ' +
      "found; the format follows an integrator's public docs (votepipe.com/docs/providers/hylistio).",
    websiteUrl: 'https://hylist.io',
    logoUrl: null,
    authMethod: 'hmac',
    authField: 'X-Hylist-Signature',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'username',
    voterKind: 'hytale',
    eventPath: 'event',
    voteEvents: ['vote'],
    testEvents: ['test'],
    method: 'POST',
    signatureFormat: 'sha256_hex',
    payloadExample: {
      event: 'vote',
      server: { id: '80df6fb3-3fa2-4193-9fa7-1e46d49bd169', name: 'Mythlane', slug: 'mythlane' },
      username: 'TestPlayer',
      votes_total: 1,
      user_votes_total: 42,
      timestamp: '2026-01-25T11:07:49.572957856Z',
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      '2. On Hylist.io open Servers → Edit → Webhooks. ' +
      "3. Paste this provider's webhook URL as the webhook URL and the auth_value as the webhook secret, then save. " +
      '4. Send a test webhook from Hylist: the relay answers it as a test and records nothing.',
  },
  {
    id: 'tpl_topgg',
    slug: 'topgg',
    name: 'Top.gg',
    description:
      'Discord bot and server list, current (v1) webhooks. Each request carries ' +
      'x-topgg-signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, keyed with the webhook secret ' +
      'Top.gg issues (starts with whs_). The body field "type" is "vote.create" for votes and "webhook.test" for ' +
      "dashboard tests; the voter's Discord username is data.user.name (Discord id: data.user.platform_id). " +
      'Top.gg waits 5 s and retries 3 times (1 s, 2 s, 4 s) only on a timeout or 5xx. Sources: ' +
      'docs.top.gg (webhooks overview and events), Top-gg-Community/node-sdk src/structs/Webhook.ts.',
    websiteUrl: 'https://top.gg',
    logoUrl: null,
    authMethod: 'hmac',
    authField: 'x-topgg-signature',
    authKeySource: null,
    authTimestampField: null,
    defaultVoteePath: 'data.user.name',
    voterKind: 'name',
    discordIdPath: 'data.user.platform_id',
    eventPath: 'type',
    voteEvents: ['vote.create'],
    testEvents: ['webhook.test'],
    method: 'POST',
    signatureFormat: 'topgg',
    payloadExample: {
      type: 'vote.create',
      data: {
        id: '808499215864008704',
        weight: 1,
        created_at: '2026-02-09T00:47:14.2510149+00:00',
        expires_at: '2026-02-09T12:47:14.2510149+00:00',
        project: {
          id: '803190510032756736',
          type: 'bot',
          platform: 'discord',
          platform_id: '160105994217586689',
        },
        user: {
          id: '8226924471638491136',
          platform_id: '661200758510977084',
          name: 'cooluser',
          avatar_url: 'https://cdn.discordapp.com/embed/avatars/0.png',
        },
      },
    },
    setupInstructions:
      "1. On top.gg open your project's dashboard and its Webhooks page. " +
      "2. Add a webhook with this provider's webhook URL and save. " +
      '3. Copy the webhook secret Top.gg shows (it starts with whs_). ' +
      '4. Create the provider here from this template with that secret as auth_value, then send a test from the Webhooks page.',
    // 3 retries 1 s, 2 s and 4 s apart, each after a 5 s timeout.
    retryHorizonSeconds: 30,
    recovery: 'topgg',
    // top.gg's documentation: a user can vote for a bot or server every 12 hours.
    voteCooldown: { hours: 12 },
  },
  {
    id: 'tpl_topgg_legacy',
    slug: 'topgg-legacy',
    name: 'Top.gg (legacy webhooks)',
    description:
      'Discord bot and server list, legacy (v0) webhooks. The Authorization header equals the value you typed in ' +
      'the Authorization field on Top.gg. The body field "type" is "upvote" for votes and "test" for the test ' +
      'button; "user" is the voter\'s Discord id (no username is sent). Bot webhooks send {bot, user, type, ' +
      'isWeekend, query}, server webhooks {guild, user, type, query}. Retried up to 10 times on a timeout or ' +
      '5xx, never on 4xx. Source: docs.top.gg (legacy webhooks).',
    websiteUrl: 'https://top.gg',
    logoUrl: null,
    authMethod: 'header',
    authField: 'Authorization',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'user',
    voterKind: 'discord',
    discordIdPath: 'user',
    eventPath: 'type',
    voteEvents: ['upvote'],
    testEvents: ['test'],
    method: 'POST',
    signatureFormat: null,
    payloadExample: {
      bot: '160105994217586689',
      user: '395526710101278721',
      type: 'upvote',
      isWeekend: false,
      query: '?ref=discord',
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      "2. On top.gg open https://top.gg/bot/<your-bot-id>/webhooks (or your server's webhook settings). " +
      "3. Paste this provider's webhook URL into the Webhook URL field and the auth_value into the Authorization field, then save. " +
      '4. Press Test: the relay answers it as a test and records nothing.',
    // Up to 10 retries over about 17 minutes (docs.top.gg, legacy webhooks).
    retryHorizonSeconds: 17 * 60,
    recovery: 'topgg',
    voteCooldown: { hours: 12 },
    // Bot webhooks send the bot's id as `bot`; a server webhook's reminders carry no URL unless it is set by hand.
    voteUrl: 'https://top.gg/bot/{{payload.bot}}/vote',
  },
  {
    id: 'tpl_discordbotlist',
    slug: 'discordbotlist',
    name: 'Discord Bot List (discordbotlist.com)',
    description:
      'Discord bot list. The Authorization header equals the webhook secret you set in the bot settings. The ' +
      'body is {id, username, avatar, admin}; the voter is "username" (Discord id: "id"). No event type or ' +
      'test flag is sent. Source: docs.discordbotlist.com/vote-webhooks.',
    websiteUrl: 'https://discordbotlist.com',
    logoUrl: null,
    authMethod: 'header',
    authField: 'Authorization',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'username',
    voterKind: 'name',
    discordIdPath: 'id',
    eventPath: null,
    voteEvents: null,
    testEvents: null,
    method: 'POST',
    signatureFormat: null,
    payloadExample: {
      id: '395526710101278721',
      username: 'cooluser',
      avatar: 'a_1269e74af4df7417b13759eae50c83dc',
      admin: false,
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      "2. On discordbotlist.com open your bot's settings and its vote webhook section. " +
      "3. Paste this provider's webhook URL as the webhook URL and the auth_value as the webhook secret, then save.",
    // "Users can vote once per 12 hours" (docs.discordbotlist.com, Implementing Voting).
    voteCooldown: { hours: 12 },
  },
  {
    id: 'tpl_discords',
    slug: 'discords',
    name: 'Discords.com',
    description:
      'Discord bot list (formerly Bots for Discord). The Authorization header equals the Webhook Secret you set ' +
      'on the bot\'s edit page. The body field "type" is "vote" or "premium_vote" for votes; review webhooks ' +
      '("review") are ignored. "user" is the voter\'s Discord id (no username is sent). Sources: ' +
      'docs.discords.com (receiving webhooks), docs.botsfordiscord.com (receiving votes). Unconfirmed: the ' +
      'test event\'s value ("test") is taken from the older docs\' "vote event or test event" and from a ' +
      'third-party library (dbothook), not from a documented example.',
    websiteUrl: 'https://discords.com',
    logoUrl: null,
    authMethod: 'header',
    authField: 'Authorization',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'user',
    voterKind: 'discord',
    discordIdPath: 'user',
    eventPath: 'type',
    voteEvents: ['vote', 'premium_vote'],
    testEvents: ['test'],
    method: 'POST',
    signatureFormat: null,
    payloadExample: {
      user: '254287885585350666',
      bot: '621352902656524288',
      query: { cast: '/bots/bot/621352902656524288/vote' },
      type: 'vote',
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      "2. On discords.com click your profile picture, scroll to your bots and open the bot's edit page. " +
      "3. Paste this provider's webhook URL into Webhook URL and the auth_value into Webhook Secret, then save.",
  },
  {
    id: 'tpl_discord_place',
    slug: 'discord-place',
    name: 'discord.place',
    description:
      'Discord bot and server list. The Authorization header equals the webhook token you set on the ' +
      'management page. The body is {bot or guild, user, test}; "user" is the voter\'s Discord id (no username ' +
      'is sent) and the boolean "test" is true only for test deliveries. Source: docs.discord.place (webhooks); ' +
      'older docs say failed deliveries are never retried, newer ones say 3 retries 5 s apart.',
    websiteUrl: 'https://discord.place',
    logoUrl: null,
    authMethod: 'header',
    authField: 'Authorization',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'user',
    voterKind: 'discord',
    discordIdPath: 'user',
    eventPath: 'test',
    voteEvents: null,
    testEvents: ['true'],
    method: 'POST',
    signatureFormat: null,
    payloadExample: {
      bot: '1006581546433536021',
      user: '957840712404193290',
      test: false,
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      "2. On discord.place open your bot's or server's management page and its Webhook options. " +
      "3. Paste this provider's webhook URL as the webhook URL and the auth_value as the webhook token, then save.",
  },
  {
    id: 'tpl_discollab',
    slug: 'discollab',
    name: 'Discollab',
    description:
      'Discord bot and server list. Sends Authorization: Bearer <token>, where the token is the one entered in ' +
      'the Discollab dashboard (the relay ignores the "Bearer " prefix). The body is {client_id or guild_id, ' +
      'user_id, username, voted_on_iso, vote_again, times_voted, is_test}; the voter is "username" (id: ' +
      '"user_id") and the boolean "is_test" is true only for "Send Test Webhook". Source: ' +
      'docs.discollab.org/resources/webhooks.',
    websiteUrl: 'https://discollab.org',
    logoUrl: null,
    authMethod: 'header',
    authField: 'Authorization',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'username',
    voterKind: 'name',
    discordIdPath: 'user_id',
    eventPath: 'is_test',
    voteEvents: null,
    testEvents: ['true'],
    method: 'POST',
    signatureFormat: null,
    payloadExample: {
      client_id: '1006581546433536021',
      user_id: '395526710101278721',
      username: 'cooluser',
      voted_on_iso: '2026-03-14T09:26:53Z',
      vote_again: 43200,
      times_voted: 7,
      is_test: false,
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      '2. On the Discollab dashboard select your server or bot and open the Additional Info tab. ' +
      '3. At the bottom, paste this provider\'s webhook URL as the endpoint URL and the auth_value as its token (without "Bearer"), then save. ' +
      '4. Use Send Test Webhook: the relay answers it as a test and records nothing.',
  },
  {
    id: 'tpl_discordforge',
    slug: 'discordforge',
    name: 'DiscordForge',
    description:
      'Discord bot list. The Authorization header equals your webhook secret. The body is {admin, avatar, ' +
      'username, id, weeklyVotes, totalVotes, isTest}; the voter is "username" (Discord id: "id") and the ' +
      'boolean "isTest" is true only for the Test Webhook button. Source: discordforge.js.org/docs/webhooks.',
    websiteUrl: 'https://discordforge.org',
    logoUrl: null,
    authMethod: 'header',
    authField: 'Authorization',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'username',
    voterKind: 'name',
    discordIdPath: 'id',
    eventPath: 'isTest',
    voteEvents: null,
    testEvents: ['true'],
    method: 'POST',
    signatureFormat: null,
    payloadExample: {
      admin: false,
      avatar: 'https://cdn.discordapp.com/embed/avatars/1.png',
      username: 'CoolUser',
      id: '123456789012345678',
      weeklyVotes: 3,
      totalVotes: 42,
      isTest: false,
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} ` +
      '2. On DiscordForge open the Dashboard and click Edit on your bot. ' +
      "3. Paste this provider's webhook URL as the webhook URL and the auth_value as the webhook secret, then save. " +
      '4. Use the Test Webhook button: the relay answers it as a test and records nothing.',
  },
  {
    id: 'tpl_top_server',
    slug: 'top-server',
    name: 'Top-Server.net',
    description:
      'Game server list (PUSH webhooks). Sends x-topserver-signature: sha256=<hex HMAC-SHA256 of the raw JSON ' +
      'body>, keyed with the per-server push secret Top-Server issues, and the event in x-topserver-event and ' +
      'in the body field "event" ("vote"). The voter is "player" (the in-game name typed when voting). ' +
      'Top-Server waits 8 s. Source: top-server.net/docs. No test delivery is documented, so no test value is ' +
      'set; any event other than "vote" is ignored.',
    websiteUrl: 'https://top-server.net',
    logoUrl: null,
    authMethod: 'hmac',
    authField: 'x-topserver-signature',
    authKeySource: null,
    authTimestampField: null,
    defaultVoteePath: 'player',
    voterKind: 'name',
    eventPath: 'event',
    voteEvents: ['vote'],
    testEvents: null,
    method: 'POST',
    signatureFormat: 'sha256_hex',
    payloadExample: {
      event: 'vote',
      serverId: 'clx8k2m9p0001qz7h3f5v6b2n',
      voteId: 'clx8k3a1q0004qz7hd2w9e8rt',
      player: 'Pseudo123',
      votedAt: '2026-06-22T03:00:00.000Z',
    },
    setupInstructions:
      '1. On top-server.net open your dashboard → your server → Edit → API panel. ' +
      "2. Enable PUSH and paste this provider's webhook URL as the webhook URL, then save. " +
      '3. Copy the push secret shown in the same panel. ' +
      '4. Create the provider here from this template with that secret as auth_value.',
  },
  {
    id: 'tpl_topg',
    slug: 'topg',
    name: 'TopG.org',
    description:
      'Game server toplist with a postback (GET) callback: after a counted vote TopG calls your postback URL ' +
      'with ?p_resp=<the parameter from your vote link>&ip=<voter IP>. TopG itself offers only an IP ' +
      'allow-list, so the relay checks a secret query parameter ("secret") that you add to the postback URL. ' +
      'The voter is whatever you put at the end of the vote link (letters, digits and _ only). Source: ' +
      'topg.org/voting_check. Unconfirmed: the "ip" parameter (the stored docs show only p_resp), and ' +
      'whether TopG appends its parameters with "&" to a postback URL that already has a query string.',
    websiteUrl: 'https://topg.org',
    logoUrl: null,
    authMethod: 'query',
    authField: 'secret',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'p_resp',
    voterKind: 'name',
    voterAddressPath: 'ip',
    eventPath: null,
    voteEvents: null,
    testEvents: null,
    method: 'GET',
    signatureFormat: null,
    payloadExample: {
      p_resp: 'Razor_01',
      ip: '203.0.113.7',
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} The webhook_url in the response already carries it as ?secret=…. ` +
      '2. Log in to TopG.org, edit your site configuration and paste that full webhook_url as the Postback URL. ' +
      "3. Add each player's name to the end of your TopG vote link (in-<SITEID>-<PLAYERNAME>; letters, digits and _ only).",
  },
  {
    id: 'tpl_gaming_toplist',
    slug: 'gaming-toplist',
    name: 'Gaming-Toplist',
    description:
      'Game server toplist with a postback (GET) callback: after a counted vote Gaming-Toplist calls your ' +
      'postback URL with ?gtl_resp=<the parameter from your vote link>&ip=<voter IP>. The site has no shared ' +
      'secret, so the relay checks a secret query parameter ("secret") that you add to the postback URL. The ' +
      'voter is whatever you put at the end of the vote link (letters, digits and _ only). Source: ' +
      'gaming-toplist.com/plugins/incentive. Unconfirmed: whether the site appends its parameters with "&" to ' +
      'a postback URL that already has a query string.',
    websiteUrl: 'https://gaming-toplist.com',
    logoUrl: null,
    authMethod: 'query',
    authField: 'secret',
    authKeySource: 'generated',
    authTimestampField: null,
    defaultVoteePath: 'gtl_resp',
    voterKind: 'name',
    voterAddressPath: 'ip',
    eventPath: null,
    voteEvents: null,
    testEvents: null,
    method: 'GET',
    signatureFormat: null,
    payloadExample: {
      gtl_resp: 'Razor',
      ip: '203.0.113.42',
    },
    setupInstructions:
      `1. ${GENERATED_SECRET_STEP} The webhook_url in the response already carries it as ?secret=…. ` +
      '2. On Gaming-Toplist open the Dashboard, use Edit under your server and paste that full webhook_url as the Postback URL. ' +
      "3. Add each player's name to the end of your vote link: https://gaming-toplist.com/vote/<SiteId>/<PLAYERNAME> (letters, digits and _ only).",
  },
  votifierList({
    slug: 'votifier',
    name: 'Any Votifier list',
    websiteUrl: 'https://github.com/NuVotifier/NuVotifier',
    game: 'Minecraft',
    how: "For any list that asks for a Votifier host, port and public key or token (Minecraft or Hytale). Source: NuVotifier's protocol code (net/protocol).",
  }),
  votifierList({
    slug: 'planetminecraft',
    name: 'Planet Minecraft',
    websiteUrl: 'https://www.planetminecraft.com',
    game: 'Minecraft',
    how: UNCONFIRMED_VOTIFIER,
  }),
  votifierList({
    slug: 'minecraft-servers-org',
    name: 'MinecraftServers.org',
    websiteUrl: 'https://minecraftservers.org',
    game: 'Minecraft',
    how: UNCONFIRMED_VOTIFIER,
  }),
  votifierList({ slug: 'minecraft-mp', name: 'Minecraft-MP', websiteUrl: 'https://minecraft-mp.com', game: 'Minecraft', how: UNCONFIRMED_VOTIFIER }),
  votifierList({
    slug: 'minecraft-server-list',
    name: 'Minecraft Server List',
    websiteUrl: 'https://minecraft-server-list.com',
    game: 'Minecraft',
    how: UNCONFIRMED_VOTIFIER,
  }),
  votifierList({
    slug: 'hytaleserver-xyz',
    name: 'HytaleServer.xyz',
    websiteUrl: 'https://hytaleserver.xyz',
    game: 'Hytale',
    how: `Delivers only by Votifier to a host and port. ${UNCONFIRMED_VOTIFIER}`,
  }),
  votifierList({
    slug: 'hytalelobby',
    name: 'HytaleLobby',
    websiteUrl: 'https://hytalelobby.com',
    game: 'Hytale',
    how: `Delivers only by Votifier to a host and port. ${UNCONFIRMED_VOTIFIER}`,
  }),
  votifierList({
    slug: 'hytale-online-servers',
    name: 'HytaleOnlineServers',
    websiteUrl: 'https://hytaleonlineservers.com',
    game: 'Hytale',
    how: `Delivers only by Votifier to a host and port. ${UNCONFIRMED_VOTIFIER}`,
  }),
  votifierList({
    slug: 'serveurhytale-fr',
    name: 'ServeurHytale.fr',
    websiteUrl: 'https://serveurhytale.fr',
    game: 'Hytale',
    how: `Delivers only by Votifier to a host and port. ${UNCONFIRMED_VOTIFIER}`,
  }),
  votifierList({
    slug: 'hytale-game',
    name: 'Hytale.game',
    websiteUrl: 'https://hytale.game',
    game: 'Hytale',
    how: `Delivers only by Votifier to a host and port. ${UNCONFIRMED_VOTIFIER}`,
  }),
  votifierList({
    slug: 'hytaletop100',
    name: 'HytaleTop100',
    websiteUrl: 'https://hytaletop100.com',
    game: 'Hytale',
    siteToken: true,
    how: `Sends Votifier v2 over HTTP(S) with a token the site generates (no challenge). ${UNCONFIRMED_VOTIFIER}`,
  }),
];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) {
      deepFreeze((value as Record<string, unknown>)[key]);
    }
    Object.freeze(value);
  }
  return value;
}

export const PROVIDER_TEMPLATES: readonly ProviderTemplate[] = deepFreeze(TEMPLATES);

const BY_KEY: ReadonlyMap<string, ProviderTemplate> = new Map(
  PROVIDER_TEMPLATES.flatMap((t) => [[t.id.toLowerCase(), t] as const, [t.slug.toLowerCase(), t] as const]),
);

/** Finds a template by id ('tpl_topgg') or slug ('topgg'), case-insensitively. */
export function findTemplate(idOrSlug: string): ProviderTemplate | undefined {
  return BY_KEY.get(idOrSlug.trim().toLowerCase());
}
