// Said above the addresses Vote Relay gives a site when no site can reach them yet (README "First steps"): an address
// of this machine or its network (Organization.hookAddressWarning, votifierAddressWarning).
import type { AddressWarnings } from './setup-steps';

/** Said above the addresses when no site can reach them yet. */
export function ReachWarning({ warnings, votifier, subject }: { warnings: AddressWarnings; votifier: boolean; subject?: string }) {
  const warning = votifier ? (warnings.votifier ?? warnings.hooks) : warnings.hooks;
  if (!warning) return null;
  return (
    <p className="warn-text" role="alert">
      {warning} (README, First steps) and restart Vote Relay. Until then no voting site can reach{' '}
      {subject ?? (votifier ? 'the addresses below' : 'the webhook URL below')}.
    </p>
  );
}
