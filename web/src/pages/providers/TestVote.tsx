// One provider's test vote: the delivery its site would send for a voter, through its real hook path, stored and
// delivered marked as a test (no statistics, no reward from an HTTP callback that reads "test"). Votifier callbacks
// and plugins cannot tell a test from a vote, so they get it only when asked, after a confirmation.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';

const SendTestVote = graphql(`
  mutation SendTestVote($key: String!, $voterName: String, $deliverToGameServers: Boolean) {
    sendTestVote(key: $key, voterName: $voterName, deliverToGameServers: $deliverToGameServers) {
      received voteId duplicate test ignored testVote voterName deliverToGameServers
    }
  }
`);

/** Clearly not a player, and still a valid Minecraft name (what the service uses when none is given). */
export const FAKE_VOTER = 'VoteRelayTest';

type Receipt = {
  voteId?: string | null;
  duplicate?: boolean | null;
  test?: boolean | null;
  ignored?: boolean | null;
  testVote?: boolean | null;
  voterName?: string | null;
  deliverToGameServers?: boolean | null;
};

function Answer({ receipt, providerName }: { receipt: Receipt; providerName: string }) {
  if (receipt.test) return <p>{providerName} answered it as the site's own test ping: nothing was recorded.</p>;
  if (receipt.ignored) return <p>{providerName} received it and ignored it (not a vote event): nothing was recorded.</p>;
  const link = receipt.voteId ? (
    <Link className="vote-id" title={receipt.voteId} to={`/votes/${encodeURIComponent(receipt.voteId)}`}>
      {receipt.voteId}
    </Link>
  ) : null;
  const gameServers = receipt.deliverToGameServers
    ? 'Votifier callbacks and plugins get it too, and cannot tell it is a test.'
    : 'Votifier callbacks and plugins do not get it.';
  return (
    <p>
      <span className="badge test-badge">Test vote</span>{' '}
      {receipt.duplicate ? (
        <>A duplicate of test vote {link} (the same test within the duplicate window): send it for another voter name to make a new one.</>
      ) : (
        <>
          Recorded as test vote {link} for <strong>{receipt.voterName}</strong>: counted in no statistics; chat shows it as a test and HTTP callbacks receive{' '}
          <code>"test": true</code>. {gameServers}
        </>
      )}
    </p>
  );
}

export function TestVote({
  provider,
  readOnly,
  onClose,
  onSent,
}: {
  provider: { key: string; name: string; authMethod: string };
  readOnly: boolean;
  onClose: () => void;
  onSent: () => void;
}) {
  const [voterName, setVoterName] = useState(FAKE_VOTER);
  const [toGameServers, setToGameServers] = useState(false);
  const [result, send] = useMutation(SendTestVote);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const errors = fieldErrorsOf(result.error);
  const id = `test-vote-${provider.key}`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setReceipt(null);
    if (
      toGameServers &&
      !window.confirm(
        `Deliver this test vote to your game servers too? Votifier has no test flag: Votifier callbacks and plugins will give ${voterName || FAKE_VOTER} the reward for a real vote.`,
      )
    )
      return;
    const answer = await send({ key: provider.key, voterName, deliverToGameServers: toGameServers });
    if (answer.data?.sendTestVote) {
      setReceipt(answer.data.sendTestVote);
      onSent();
    }
  };
  return (
    <section className="card add-flow" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Test vote: {provider.name}</h2>
      <p className="muted">
        Sends what {provider.name} would send for a vote, through its real webhook (secret, parsing, duplicate rule), and records it as a test vote: it counts
        in no statistics and pays no reward through callbacks that read <code>"test"</code>.
      </p>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-voter`}>Voter name</label>
        <input
          id={`${id}-voter`}
          value={voterName}
          onChange={(e) => setVoterName(e.target.value)}
          aria-invalid={!!errors.voter_name}
          aria-describedby={`${id}-voter-hint`}
          autoComplete="off"
        />
        <p id={`${id}-voter-hint`} className="hint">
          A made-up name, so nobody is rewarded by mistake; use a real player's name to test what they would receive.
        </p>
        <FieldErrors errors={errors} field="voter_name" />
        <label className="check">
          <input type="checkbox" checked={toGameServers} onChange={(e) => setToGameServers(e.target.checked)} />
          Also deliver to game servers (Votifier callbacks and plugins)
        </label>
        {toGameServers && (
          <p className="warn-text" id={`${id}-warning`}>
            Votifier has no test flag: the game server gives this voter the reward for a real vote.
          </p>
        )}
        <FieldErrors errors={errors} field="deliver_to_game_servers" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            {result.fetching ? 'Sending…' : 'Send test vote'}
          </button>
          <button type="button" className="link" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      <div role="status" className="answer">
        {receipt && <Answer receipt={receipt} providerName={provider.name} />}
      </div>
    </section>
  );
}
