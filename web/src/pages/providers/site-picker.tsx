// Step 1 of adding a provider: the voting site, from every template in the catalogue, plus a custom webhook and a
// Votifier list for a site that is not in it. A filter narrows the choices by name, address or description.
import { useState } from 'react';

export interface SiteTemplate {
  slug: string;
  name: string;
  description: string;
  websiteUrl: string;
  authMethod: string;
  authField: string;
  authKeySource?: string | null;
  setupInstructions: string;
}

export type Site = { kind: 'template'; template: SiteTemplate } | { kind: 'custom' } | { kind: 'votifier' };

/** The catalogue's generic Votifier entry is the picker's own "Votifier list" choice (the same provider). */
export const GENERIC_VOTIFIER_TEMPLATE = 'votifier';

/** The site's first sentence: its descriptions go on to the protocol and the sources, which the next step shows. */
export const firstSentence = (text: string) => /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;

export const hostOf = (url: string) => {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
};

/** Letters standing in for a logo: the catalogue's logos live on the sites' own hosts, which the dashboard never loads. */
export function Monogram({ name, seed }: { name: string; seed: string }) {
  const letters =
    name
      .replace(/[^A-Za-z0-9 ]/g, ' ')
      .trim()
      .split(/\s+/)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?';
  const hue = [...seed].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 6;
  return (
    <span className={`monogram hue-${hue}`} aria-hidden="true">
      {letters}
    </span>
  );
}

function Choice({ name, seed, summary, detail, onPick }: { name: string; seed: string; summary: string; detail?: string; onPick: () => void }) {
  return (
    <li>
      <button type="button" className="site-choice" onClick={onPick}>
        <Monogram name={name} seed={seed} />
        <span className="site-text">
          <strong>{name}</strong>
          {detail && <span className="site-host">{detail}</span>}
          <span className="site-summary">{summary}</span>
        </span>
      </button>
    </li>
  );
}

export function SitePicker({ templates, onPick }: { templates: SiteTemplate[]; onPick: (site: string) => void }) {
  const [filter, setFilter] = useState('');
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (...texts: string[]) => words.every((w) => texts.some((t) => t.toLowerCase().includes(w)));
  const shown = templates.filter((t) => t.slug !== GENERIC_VOTIFIER_TEMPLATE && matches(t.name, t.slug, t.websiteUrl, t.description));
  const webhooks = shown.filter((t) => t.authMethod !== 'votifier');
  const votifier = shown.filter((t) => t.authMethod === 'votifier');
  const custom = matches('Custom webhook any other site', 'custom');
  const anyVotifier = matches('Votifier list any other Minecraft Hytale', 'votifier');
  const group = (id: string, title: string, items: SiteTemplate[]) =>
    items.length > 0 && (
      <section aria-labelledby={id} className="site-group">
        <h2 id={id}>{title}</h2>
        <ul className="site-grid">
          {items.map((t) => (
            <Choice
              key={t.slug}
              name={t.name}
              seed={t.slug}
              detail={hostOf(t.websiteUrl)}
              summary={firstSentence(t.description)}
              onPick={() => onPick(t.slug)}
            />
          ))}
        </ul>
      </section>
    );
  return (
    <>
      <label htmlFor="site-filter">Find the voting site</label>
      <input
        id="site-filter"
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        placeholder="top.gg, minecraft, hytale…"
        autoComplete="off"
      />
      {group('sites-webhook', 'Voting sites', webhooks)}
      {group('sites-votifier', 'Votifier lists (Minecraft and Hytale)', votifier)}
      {(custom || anyVotifier) && (
        <section aria-labelledby="sites-other" className="site-group">
          <h2 id="sites-other">A site that is not listed</h2>
          <ul className="site-grid">
            {custom && (
              <Choice
                name="Custom webhook"
                seed="custom"
                onPick={() => onPick('custom')}
                summary="Any site that calls a URL for each vote: you choose how it proves the delivery is its own and where the voter's name is."
              />
            )}
            {anyVotifier && (
              <Choice
                name="Votifier list"
                seed="votifier-list"
                onPick={() => onPick('votifier')}
                summary="Any Minecraft or Hytale list that sends votes by the Votifier protocol (v1 public key or v2 token) to a host and port."
              />
            )}
          </ul>
        </section>
      )}
      {!webhooks.length && !votifier.length && !custom && !anyVotifier && <p className="empty">No site matches “{filter}”.</p>}
    </>
  );
}
