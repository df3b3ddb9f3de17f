// /v1/organization: read, partial update, test the chat webhook.
import type { RestRoute } from '../route.js';

export const ORGANIZATION_FIELDS = `
  id slug name plan status
  settings {
    chat_webhook_url: chatWebhookUrl
    chat_admin_webhook_url: chatAdminWebhookUrl
    chat_notifications_enabled: chatNotificationsEnabled
    chat_message_type: chatMessageType
    chat_message_template: chatMessageTemplate
    chat_embed_template: chatEmbedTemplate
    admin_daily_summary: adminDailySummary
    admin_weekly_summary: adminWeeklySummary
    admin_vote_spike_alerts: adminVoteSpikeAlerts
    admin_permanent_fail_alerts: adminPermanentFailAlerts
    admin_usage_warnings: adminUsageWarnings
    server_callback_url: serverCallbackUrl
    time_zone: timeZone
    milestones { type every at provider }
    vote_party_every: votePartyEvery
    vote_party_provider: votePartyProvider
    reminders_enabled: remindersEnabled
    chat_milestone_template: chatMilestoneTemplate
    chat_vote_party_template: chatVotePartyTemplate
    bedrock_prefix: bedrockPrefix
    discord_bot_token_set: discordBotTokenSet
    discord_guild_id: discordGuildId
    leaderboard_posts: leaderboardPosts { period top at }
    vote_page: votePage { enabled title show_leaderboard: showLeaderboard }
  }
  usage {
    votes_this_month: votesThisMonth
    votes_limit: votesLimit
    providers_count: providersCount
    providers_limit: providersLimit
  }`;

export const organizationRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/organization',
    summary: 'Read the organization, its settings and usage',
    document: `query { organization { ${ORGANIZATION_FIELDS} } }`,
    data: (r) => r.organization,
  },
  {
    method: 'patch',
    path: '/organization',
    summary: 'Update the organization (only the fields given change)',
    errors: ['PLAN_UPGRADE_REQUIRED'],
    document: `mutation ($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { ${ORGANIZATION_FIELDS} } }`,
    variables: (req) => ({ input: req.body ?? {} }),
    data: (r) => r.updateOrganization,
  },
  {
    method: 'post',
    path: '/organization/test-chat-webhook',
    summary: 'Send a test message to a chat webhook',
    errors: ['WEBHOOK_ERROR', 'PLAN_UPGRADE_REQUIRED'],
    document: `mutation ($input: TestChatWebhookInput!) { testChatWebhook(input: $input) { success message } }`,
    variables: (req) => ({ input: req.body ?? {} }),
    data: (r) => r.testChatWebhook,
  },
];
