// What to fix, in words, for a hook request log entry (the dashboard's Requests view and `hint` in the API): read
// from the stored outcome, code and reason with what is known of the provider, so it is computed when read and
// follows the wording of the refusals themselves (src/modules/providers/auth-methods/, ingest.service.ts).

export interface HintInput {
  outcome: string;
  protocol: string;
  method: string;
  errorCode: string | null;
  reason: string | null;
  /** The key as addressed. */
  providerKey: string;
  /** The provider the entry belongs to; null in the organization-level log (no provider had the key). */
  provider: { authMethod: string; authField: string; payloadSource: string } | null;
  /** The organization's provider keys (for a key no provider has). */
  providerKeys: readonly string[];
}

const SECRET_PASTED = 'check the secret you pasted into the site';
const CLOCK_OR_RESENT = "the sender's clock is wrong or the delivery was resent";

function listOf(keys: readonly string[]): string {
  if (keys.length === 0) return 'this organization has no providers yet';
  const shown = keys.slice(0, 10).join(', ');
  return `your providers are ${shown}${keys.length > 10 ? ` and ${keys.length - 10} more` : ''}`;
}

function authFailedHint(input: HintInput, reason: string): string {
  const votifier = input.protocol.startsWith('votifier') || input.provider?.authMethod === 'votifier';
  if (/signature is not valid|invalid token/i.test(reason))
    return "the token the list has is not this provider's: paste the provider's Votifier token into the list again";
  if (/could not decrypt/i.test(reason))
    return "the list encrypted the vote with another public key: paste this provider's Votifier public key into the list again";
  if (/challenge is not valid/i.test(reason))
    return "the vote answered another session's challenge: the list's Votifier client is faulty or a proxy replayed a session";
  if (/body timestamp|timestamp is not within/i.test(reason)) return `the timestamp in the delivery is too old or ahead of our clock: ${CLOCK_OR_RESENT}`;
  if (/signature timestamp outside/i.test(reason)) return `the signature's timestamp is more than 5 minutes away: ${CLOCK_OR_RESENT}`;
  if (/signed deliveries must be posted/i.test(reason)) return 'a GET reached a provider that reads a signed POST body: a proxy may have rewritten the request';
  if (/malformed signature/i.test(reason)) {
    const expected = /expected (.+)$/i.exec(reason)?.[1];
    return `the signature header is not in the site's format${expected ? ` (${expected})` : ''}: the secret is not the problem; the request did not come from the site as it signs, or a proxy changed the header`;
  }
  if (/bad signature/i.test(reason)) return `the signature did not match: ${SECRET_PASTED}`;
  if (/missing secret path segment/i.test(reason)) return 'the URL has no secret at its end: give the site the whole webhook URL, secret included';
  const missing = /missing (?:or malformed )?(\S+) (header|query parameter)/i.exec(reason);
  if (missing) {
    return missing[2].toLowerCase() === 'header'
      ? `the request had no ${missing[1]} header: the site is not sending the secret, or a proxy removed the header`
      : `the URL had no ${missing[1]} query parameter: give the site the whole webhook URL, secret included`;
  }
  if (/wrong secret/i.test(reason)) {
    if (input.provider?.authMethod === 'url_path') return "the secret at the end of the URL is not this provider's: copy the webhook URL into the site again";
    if (input.provider?.authMethod === 'query')
      return `the ${input.provider.authField} query parameter is not this provider's secret: copy the webhook URL into the site again`;
    return `the secret did not match: ${SECRET_PASTED}`;
  }
  if (votifier) return "the list's Votifier credentials are not this provider's: paste the provider's token or public key into the list again";
  return `the sender could not prove it is the site: ${SECRET_PASTED}`;
}

function validationHint(input: HintInput, reason: string): string {
  if (input.method === 'GET' && input.provider && input.provider.payloadSource !== 'query') {
    return `a GET reached a provider that reads a ${input.provider.payloadSource === 'form' ? 'form' : 'JSON'} body: a proxy may have rewritten the request`;
  }
  if (/a vote is a JSON object/i.test(reason))
    return 'the site sent a body with no vote in it (null or a bare value): a connectivity check sends that; a vote is a JSON object';
  if (/voter name is missing|no voter name/i.test(reason))
    return "the delivery has no voter name where the provider reads it: check the provider's votee_path against what the site sends";
  if (/voter name/i.test(reason)) return 'the voter name was refused (too long, or with control characters): the site sent something that is not a name';
  if (/not valid json|could not be read/i.test(reason))
    return "the body could not be read: check that the provider's payload_source (json, form or query) is how the site sends";
  if (/must be a timestamp|no timestamp/i.test(reason))
    return "the delivery has no readable timestamp where the provider's body_timestamp_path points: check it against what the site sends";
  if (/nested deeper/i.test(reason)) return 'the body is nested too deeply to be a vote';
  if (input.protocol.startsWith('votifier') || /votifier|v1 block|v2 message|frame/i.test(reason)) {
    return 'what arrived is not a Votifier vote: check the host, port and protocol version typed into the list';
  }
  return 'the delivery could not be read as a vote: compare what the site sends with the provider settings';
}

/** The hint for one entry, or null when there is nothing to fix (accepted, duplicate, test). */
export function hookRequestHint(input: HintInput): string | null {
  if (input.outcome === 'ignored')
    return "the delivery's event is not one of the provider's vote events, so nothing was recorded: add it to vote_events if it is a vote";
  if (input.outcome !== 'refused') return null;
  const reason = input.reason ?? '';
  switch (input.errorCode) {
    case 'AUTH_FAILED':
      return authFailedHint(input, reason);
    case 'VALIDATION_ERROR':
      return validationHint(input, reason);
    case 'NOT_FOUND':
      if (!input.provider) return `no provider has the key ${input.providerKey}: check the URL you gave the site; ${listOf(input.providerKeys)}`;
      return 'the request was not understood as a delivery to this provider: check the URL you gave the site';
    case 'PAYLOAD_TOO_LARGE':
      return 'the body was larger than the 64 KiB a hook accepts: the sender is not sending a vote, or is not the site';
    case 'RATE_LIMITED':
      if (/for this organization/i.test(reason)) {
        return 'more votes arrived this minute than the organization may receive (HOOK_RATE_LIMIT_PER_MINUTE): the site should retry later; ask the operator to raise the limit if this is real traffic';
      }
      return 'this address sent too many refused deliveries this minute (HOOK_FAILURE_LIMIT_PER_MINUTE): fix the cause of its earlier refusals; it is accepted again after the minute';
    case 'PROVIDER_DISABLED':
      return 'the provider is disabled: enable it to record votes again';
    case 'ORG_SUSPENDED':
      return 'the organization is suspended: votes are refused until an operator activates it again';
    case 'SERVICE_UNAVAILABLE':
      return 'the database could not be reached: nothing was stored, and the site may retry';
    case 'INTERNAL_ERROR':
      return "an internal error: nothing was stored; the operator's log has the details";
    default:
      return null;
  }
}
