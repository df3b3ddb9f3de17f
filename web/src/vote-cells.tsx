// A vote's row cells after its voter (the Votes table, a voter's votes): provider, time, chat and callback status,
// each with its data-label for the card it becomes on a phone (.phone-cards).
import { Time } from './time';
import { Status } from './status';
import type { DeliveryStatus } from './gql/graphql';

export function VoteCells({ vote }: { vote: { providerName: string; receivedAt: string; chatStatus: DeliveryStatus; callbackStatus: DeliveryStatus } }) {
  return (
    <>
      <td className="provider" data-label="Provider">
        {vote.providerName}
      </td>
      <td className="received full" data-label="Received">
        <Time value={vote.receivedAt} />
      </td>
      <td className="chat" data-label="Chat">
        <Status value={vote.chatStatus} />
      </td>
      <td className="callbacks" data-label="Callbacks">
        <Status value={vote.callbackStatus} />
      </td>
    </>
  );
}
