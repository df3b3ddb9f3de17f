// Admin alert messages (Discord-compatible bodies) sent to chat_admin_webhook_url.
import type { AppDeps } from '../app/deps.js';
import type { Organization } from '../generated/sqlite/client.js';
import { planAtLeast } from '../domain/plans.js';
import type { ChatMessageBody } from './chat-message.js';
import { DISCORD_LIMITS } from './chat-message.js';

const RED = 0xe74c3c;

export function permanentFailureAlert(input: {
  callbackName: string;
  target: string;
  vote: { publicId: string; voterName: string; receivedAt: Date; provider: { name: string } };
  attempts: number;
  error: string | null;
}): ChatMessageBody {
  const { vote } = input;
  return {
    embeds: [
      {
        color: RED,
        title: 'Callback failed permanently',
        description:
          `The vote by **${vote.voterName}** on **${vote.provider.name}** could not be delivered to **${input.callbackName}** after ${input.attempts} attempt(s). Redeliver it with POST /v1/votes/${vote.publicId}/redeliver once the server is back.`.slice(
            0,
            DISCORD_LIMITS.description,
          ),
        fields: [
          { name: 'Vote', value: vote.publicId, inline: true },
          { name: 'Received', value: vote.receivedAt.toISOString(), inline: true },
          { name: 'Target', value: input.target.slice(0, 200) || '—', inline: false },
          { name: 'Last error', value: (input.error ?? 'unknown').slice(0, 500), inline: false },
        ],
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function callbackDisabledAlert(input: { callbackName: string; reason: string; held: number; failingSince: Date }): ChatMessageBody {
  return {
    embeds: [
      {
        color: RED,
        title: 'Callback disabled',
        description:
          `**${input.callbackName}** was disabled: ${input.reason}. Fix the server, then enable the callback again (PATCH /v1/callbacks/:id {"enabled": true} or the dashboard); its held votes are delivered then.`.slice(
            0,
            DISCORD_LIMITS.description,
          ),
        fields: [
          { name: 'Failing since', value: input.failingSince.toISOString(), inline: true },
          { name: 'Votes held', value: String(input.held), inline: true },
        ],
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/**
 * Queues one admin alert (a chat body) for the organization, when it has the admin webhook, permanent-failure alerts
 * on, and the Growth plan; `uniqueKey` makes it one per key whichever instance gets here.
 */
export async function queueAdminAlert(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'logger' | 'config'>,
  org: Pick<Organization, 'id' | 'plan' | 'chatAdminWebhookUrl' | 'adminPermanentFailAlerts'>,
  uniqueKey: string,
  body: ChatMessageBody,
  now: Date,
): Promise<void> {
  if (!org.chatAdminWebhookUrl || !org.adminPermanentFailAlerts || !planAtLeast(org.plan, 'growth')) return;
  await deps.db.prisma
    .$transaction((tx) =>
      deps.jobs.enqueue(tx, [
        {
          organizationId: org.id,
          voteId: null,
          callbackId: null,
          kind: 'alert',
          priority: 0,
          maxAttempts: deps.config.chatMaxAttempts,
          runAt: now,
          uniqueKey,
          payloadJson: JSON.stringify(body),
        },
      ]),
    )
    .catch((err: { code?: string }) => {
      if (err.code !== 'P2002') deps.logger.error({ err, uniqueKey }, 'could not queue an admin alert');
    });
}

/** An admin alert that says what to fix (a Discord permission, a setting), in the owner's words. */
export function fixThisAlert(input: { title: string; description: string; fields?: { name: string; value: string }[] }): ChatMessageBody {
  return {
    embeds: [
      {
        color: RED,
        title: input.title.slice(0, DISCORD_LIMITS.title),
        description: input.description.slice(0, DISCORD_LIMITS.description),
        fields: (input.fields ?? []).map((f) => ({ name: f.name.slice(0, 256), value: f.value.slice(0, 1024) || '—', inline: false })),
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
