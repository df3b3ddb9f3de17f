// Step 3 of adding a provider: what was made, to copy now (a secret or Votifier token is never shown again), and the
// numbered steps to set it up on the site and send a test vote.
import { Link } from 'react-router';
import { CopyField } from '../../copy-field';
import { customSteps, templateSteps, votifierSteps, withReach, type AddressWarnings } from './setup-steps';
import type { Site } from './site-picker';
import { VotifierFields, type VotifierSetup } from './votifier-fields';
import { ReachWarning } from './reach-warning';

export interface MadeProvider {
  site: Site;
  key: string;
  name: string;
  authMethod: string;
  authValue: string;
  webhookUrl: string;
  votifier?: VotifierSetup | null;
  settings: { authField: string; authTimestampField?: string | null; signatureFormat?: string | null; payloadSource: string; voteePath: string };
  /** The URL given to a site that makes the secret, before the provider existed (null for the others). */
  expectedUrl: string | null;
  /** Addresses no site can reach yet (an address of this machine or its network). */
  warnings: AddressWarnings;
}

function stepsOf(made: MadeProvider): string[] {
  const { site } = made;
  if (site.kind === 'template') return withReach(templateSteps(site.template, made.name).after, made.warnings);
  if (site.kind === 'votifier') return withReach(votifierSteps(null, made.name), made.warnings);
  return withReach(customSteps({ authMethod: made.authMethod, ...made.settings }, made.name), made.warnings);
}

export function ProviderReady({ made, onDone }: { made: MadeProvider; onDone: () => void }) {
  const siteName = made.site.kind === 'template' ? made.site.template.name : 'the site';
  const siteMadeSecret = made.site.kind === 'template' && !made.site.template.authKeySource;
  const showSecret = !made.votifier && !siteMadeSecret;
  const moved = made.expectedUrl && made.expectedUrl !== made.webhookUrl;
  return (
    <div className="once" role="status" aria-live="polite">
      {made.votifier ? (
        <p>Copy these now: the token is shown only once (a new one can be made with New secret).</p>
      ) : showSecret ? (
        <p>Copy these now: the secret is shown only once (a new one can be made with New secret).</p>
      ) : (
        <p>{siteName} signs with the secret you pasted; it is not shown again.</p>
      )}
      {moved && (
        <p className="warn-text" role="alert">
          The webhook URL is not the one shown before: replace the URL you gave {siteName} with the one below.
        </p>
      )}
      <ReachWarning warnings={made.warnings} votifier={!!made.votifier} />
      {made.votifier ? (
        <VotifierFields setup={made.votifier} webhookUrl={made.webhookUrl} idPrefix="created" />
      ) : (
        <>
          <CopyField label="Webhook URL" value={made.webhookUrl} idPrefix="created" />
          {showSecret && <CopyField label="Secret" value={made.authValue} idPrefix="created" />}
        </>
      )}
      <h3>{made.site.kind === 'template' ? `Finish on ${siteName}` : 'Set it up on the site'}</h3>
      <ol className="steps" aria-label="Setup steps">
        {stepsOf(made).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div className="row">
        <button type="button" onClick={onDone}>
          Done
        </button>
        <Link to={`/providers/${encodeURIComponent(made.key)}/requests`}>Watch its requests</Link>
      </div>
    </div>
  );
}
