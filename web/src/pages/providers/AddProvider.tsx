// Adding a provider, one flow in three steps: the voting site (/providers/new), the fields that site needs
// (/providers/new?site=<template slug | custom | votifier>), then what was made (its webhook URL, and the secret or
// Votifier key shown only now) with the numbered steps to set it up on the site and send a test vote.
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { useAccess } from '../../access';
import { fieldErrorsOf } from '../../field-errors';
import { GENERIC_VOTIFIER_TEMPLATE, Monogram, SitePicker, type Site, type SiteTemplate } from './site-picker';
import { CustomSettings, TemplateSettings, VotifierSettings, type NewProviderInput } from './site-settings';
import { ProviderReady, type MadeProvider } from './provider-ready';

const AddProviderQuery = graphql(`
  query AddProviderChoices {
    organization { slug hookBaseUrl hookAddressWarning votifierAddressWarning }
    templates { id slug name description websiteUrl authMethod authField authKeySource setupInstructions }
    providers { count limit providers { key webhookUrl } }
  }
`);

const CreateProvider = graphql(`
  mutation CreateProvider($input: CreateProviderInput!) {
    createProvider(input: $input) {
      id key name authMethod authValue webhookUrl votifier { host port publicKey token }
      provider { authField authTimestampField signatureFormat payloadSource voteePath }
    }
  }
`);

const STEPS = ['Choose the site', 'Fill in what it needs', 'Set it up on the site'];

function Stepper({ at }: { at: number }) {
  return (
    <ol className="stepper" aria-label="Adding a provider">
      {STEPS.map((label, i) => (
        <li key={label} aria-current={i === at ? 'step' : undefined} className={i < at ? 'done' : undefined}>
          <span className="stepper-n" aria-hidden="true">
            {i + 1}
          </span>{' '}
          {label}
        </li>
      ))}
    </ol>
  );
}

export function AddProvider() {
  const readOnly = useAccess().scope !== 'full';
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [{ data, fetching, error }] = useQuery({ query: AddProviderQuery });
  const [result, create] = useMutation(CreateProvider);
  const [made, setMade] = useState<MadeProvider | null>(null);
  // A refusal belongs to the site it was sent for: choosing another site starts with a clean form.
  const [sentFor, setSentFor] = useState<string | null>(null);
  const choice = params.get('site');
  const templates: SiteTemplate[] = useMemo(() => data?.templates ?? [], [data?.templates]);
  const site: Site | null = useMemo(() => {
    if (choice === 'custom') return { kind: 'custom' };
    if (choice === 'votifier' || choice === GENERIC_VOTIFIER_TEMPLATE) return { kind: 'votifier' };
    const template = templates.find((t) => t.slug === choice);
    return template ? { kind: 'template', template } : null;
  }, [choice, templates]);

  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading the voting sites…
      </p>
    );
  if (!data)
    return (
      <p role="alert" className="error">
        {error?.message ?? 'The voting sites could not be loaded.'}
      </p>
    );
  const orgSlug = data.organization?.slug ?? '';
  const providers = data.providers ?? { count: 0, limit: Number.POSITIVE_INFINITY, providers: [] };
  // Sites that make the secret ask for the hook URL before the provider exists: the service says where its hooks are.
  const base = data.organization?.hookBaseUrl ?? `${location.origin}/hooks/${encodeURIComponent(orgSlug)}`;
  const hookUrlFor = (key: string) => `${base}/${encodeURIComponent(key)}`;
  const warnings = { hooks: data.organization?.hookAddressWarning ?? null, votifier: data.organization?.votifierAddressWarning ?? null };
  const errors = sentFor === choice ? fieldErrorsOf(result.error) : {};
  const full = providers.count >= providers.limit;
  const pick = (slug: string) => {
    setMade(null);
    setParams({ site: slug });
  };
  const onCreate = async (input: NewProviderInput) => {
    setSentFor(choice);
    const answer = await create({ input });
    const p = answer.data?.createProvider;
    if (p && site) {
      setMade({
        site,
        key: p.key,
        name: p.name,
        authMethod: p.authMethod,
        authValue: p.authValue,
        webhookUrl: p.webhookUrl,
        votifier: p.votifier,
        settings: p.provider,
        expectedUrl: site.kind === 'template' && !site.template.authKeySource ? hookUrlFor(p.key) : null,
        warnings,
      });
    }
  };
  const siteName = site?.kind === 'template' ? site.template.name : site?.kind === 'custom' ? 'Custom webhook' : 'Votifier list';
  const step = made ? 2 : site ? 1 : 0;
  return (
    <>
      <p>
        <Link to="/providers">← Providers</Link>
      </p>
      <h1>Add provider</h1>
      <Stepper at={step} />
      {full && !made && (
        <p className="warn-text" role="note">
          Your plan's {providers.limit} providers are all in use: delete one or upgrade before adding another.
        </p>
      )}
      {!site && <SitePicker templates={templates} onPick={pick} />}
      {site && (
        <section className="card add-flow" aria-labelledby="chosen-site">
          <div className="site-head">
            <Monogram name={siteName} seed={site.kind === 'template' ? site.template.slug : site.kind === 'custom' ? 'custom' : 'votifier-list'} />
            <div>
              <h2 id="chosen-site">{made ? `${made.name} is ready` : siteName}</h2>
              {site.kind === 'template' && !made && (
                <details className="about">
                  <summary>What {site.template.name} sends</summary>
                  <p>{site.template.description}</p>
                  <p>
                    <a href={site.template.websiteUrl} target="_blank" rel="noreferrer noopener">
                      {site.template.websiteUrl}
                    </a>
                  </p>
                </details>
              )}
            </div>
            {!made && (
              <Link to="/providers/new" className="change-site" onClick={() => setMade(null)}>
                Change site
              </Link>
            )}
          </div>
          {made ? (
            <ProviderReady made={made} onDone={() => navigate('/providers')} />
          ) : site.kind === 'template' ? (
            <TemplateSettings
              key={site.template.slug}
              template={site.template}
              hookUrlFor={hookUrlFor}
              warnings={warnings}
              errors={errors}
              busy={result.fetching}
              readOnly={readOnly}
              onCreate={onCreate}
            />
          ) : site.kind === 'custom' ? (
            <CustomSettings errors={errors} busy={result.fetching} readOnly={readOnly} onCreate={onCreate} />
          ) : (
            <VotifierSettings errors={errors} busy={result.fetching} readOnly={readOnly} onCreate={onCreate} />
          )}
        </section>
      )}
    </>
  );
}
