// Settings → Rewards (README "Rewards"): milestone rules, the vote party, chat messages for both, reminders with the
// voters who turned them off, Bedrock players' name prefix (for RCON commands), and the players' vote page. Each card saves only its own
// settings.
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { MilestoneRules } from './milestone-rules';
import { VotePartySettings } from './vote-party-settings';
import { EventMessages } from './event-messages';
import { ReminderSettings } from './reminder-settings';
import { BedrockPrefix } from './bedrock-prefix';
import { VotePageSettings } from './vote-page-settings';

const RewardSettingsQuery = graphql(`
  query RewardSettings {
    organization { id slug settings {
      votePage { enabled title showLeaderboard }
      milestones { type every at provider }
      votePartyEvery votePartyProvider chatMilestoneTemplate chatVotePartyTemplate remindersEnabled chatWebhookUrl chatNotificationsEnabled bedrockPrefix
    } }
    providers { providers { key name } }
    voteParty { enabled every progress completed }
    callbackVariables { name example }
  }
`);

export function Rewards({ readOnly }: { readOnly: boolean }) {
  const [{ data, error }] = useQuery({ query: RewardSettingsQuery });
  const settings = data?.organization?.settings;
  const sites = data?.providers?.providers ?? [];
  return (
    <section className="stack" aria-labelledby="rewards-title">
      <h2 id="rewards-title" className="section-title">
        Rewards
      </h2>
      {!settings ? (
        error ? (
          <p role="alert" className="error">
            {error.message}
          </p>
        ) : (
          <p className="loading" role="status">
            Loading the reward settings…
          </p>
        )
      ) : (
        <>
          <MilestoneRules readOnly={readOnly} rules={settings.milestones} sites={sites} />
          <VotePartySettings
            readOnly={readOnly}
            every={settings.votePartyEvery}
            provider={settings.votePartyProvider}
            sites={sites}
            standing={data.voteParty}
          />
          <EventMessages
            readOnly={readOnly}
            templates={{ chatMilestoneTemplate: settings.chatMilestoneTemplate, chatVotePartyTemplate: settings.chatVotePartyTemplate }}
            chatReady={!!settings.chatWebhookUrl}
            variables={data.callbackVariables ?? []}
          />
          <ReminderSettings readOnly={readOnly} enabled={settings.remindersEnabled} />
          <BedrockPrefix readOnly={readOnly} prefix={settings.bedrockPrefix ?? null} />
          <VotePageSettings readOnly={readOnly} slug={data!.organization!.slug} page={settings.votePage ?? null} />
        </>
      )}
    </section>
  );
}
