// Sign-in with an API key, then the dashboard: one urql client per key, pages behind a navigation bar.
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Provider as UrqlProvider, useQuery } from 'urql';
import { BrowserRouter, NavLink, Navigate, Route, Routes } from 'react-router';
import { graphql } from './gql';
import { createGraphQLClient } from './client';
import { clearKey, readKey, saveKey } from './session';
import { SignIn } from './pages/SignIn';
import { Overview } from './pages/Overview';
import { Providers } from './pages/providers/ProvidersPage';
import { Votes } from './pages/Votes';
import { VoteDetail } from './pages/VoteDetail';
import { Voters } from './pages/voters/Voters';
import { VoterDetail } from './pages/voters/VoterDetail';
import { Callbacks } from './pages/callbacks/Callbacks';
import { Settings } from './pages/settings/Settings';
import { Statistics } from './pages/Statistics';
import { GameServers } from './pages/GameServers';
import { AccessContext, LiveContext, type Access, type Live } from './access';

// Pages opened now and then (adding a provider, a request log) load on first use, keeping the first download small.
const AddProvider = lazy(() => import('./pages/providers/AddProvider').then((m) => ({ default: m.AddProvider })));
const ProviderRequests = lazy(() => import('./pages/providers/ProviderRequests').then((m) => ({ default: m.ProviderRequests })));
const UnmatchedRequests = lazy(() => import('./pages/providers/UnmatchedRequests').then((m) => ({ default: m.UnmatchedRequests })));
const later = (page: ReactNode) => (
  <Suspense
    fallback={
      <p className="loading" role="status">
        Loading…
      </p>
    }
  >
    {page}
  </Suspense>
);

const ViewerQuery = graphql(`
  query Viewer {
    viewer { scope }
    organization { name slug plan }
  }
`);

export function App() {
  const [apiKey, setApiKey] = useState<string | null>(readKey);
  const [live, setLive] = useState<Live>({ state: 'connected', resumed: 0 });
  const client = useMemo(
    () =>
      apiKey
        ? createGraphQLClient(apiKey, (state) =>
            setLive((current) => (state === current.state ? current : { state, resumed: current.resumed + (state === 'connected' ? 1 : 0) })),
          )
        : null,
    [apiKey],
  );
  if (!apiKey || !client) {
    return (
      <SignIn
        onSignIn={(key) => {
          saveKey(key);
          setApiKey(key);
        }}
      />
    );
  }
  const signOut = () => {
    clearKey();
    setApiKey(null);
  };
  return (
    <UrqlProvider value={client}>
      <BrowserRouter>
        <LiveContext.Provider value={live}>
          <Shell signOut={signOut} stream={live.state} />
        </LiveContext.Provider>
      </BrowserRouter>
    </UrqlProvider>
  );
}

function Shell({ signOut, stream }: { signOut: () => void; stream: 'connected' | 'lost' }) {
  // The page's own query starts at once, beside this one: until the key's scope is known, writes stay disabled.
  const [{ data, error }] = useQuery({ query: ViewerQuery });
  if (error && !data?.organization) {
    const invalid = error.networkError || error.graphQLErrors.some((e) => e.extensions?.code === 'INVALID_API_KEY');
    return (
      <main className="signin">
        <p role="alert" className="error">
          {invalid ? 'This API key is not valid (unknown, malformed or revoked).' : error.message}
        </p>
        <button type="button" onClick={signOut}>
          Sign in again
        </button>
      </main>
    );
  }
  const access: Access = { scope: data?.viewer?.scope ?? 'read', plan: data?.organization?.plan ?? 'starter' };
  return (
    <AccessContext.Provider value={access}>
      <header className="topbar">
        <strong className="brand">Vote Relay</strong>
        <span className="org">{data?.organization?.name}</span>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Overview
          </NavLink>
          <NavLink to="/providers">Providers</NavLink>
          <NavLink to="/votes">Votes</NavLink>
          <NavLink to="/voters">Voters</NavLink>
          <NavLink to="/statistics">Statistics</NavLink>
          <NavLink to="/callbacks">Callbacks</NavLink>
          <NavLink to="/game-servers">Game servers</NavLink>
          <NavLink to="/settings">Settings</NavLink>
        </nav>
        <span className="spacer" />
        {stream === 'lost' && (
          <span className="badge warn" role="status">
            Connection lost: the live feed is reconnecting…
          </span>
        )}
        <span className="badge" title="The API key's scope">
          {access.scope === 'full' ? 'full access' : 'read only'}
        </span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main className="page">
        <Routes>
          <Route path="/" element={<Overview />} />
          <Route path="/providers" element={<Providers />} />
          <Route path="/providers/new" element={later(<AddProvider />)} />
          <Route path="/providers/unmatched" element={later(<UnmatchedRequests />)} />
          <Route path="/providers/:key/requests" element={later(<ProviderRequests />)} />
          <Route path="/votes" element={<Votes />} />
          <Route path="/votes/:publicId" element={<VoteDetail />} />
          <Route path="/voters" element={<Voters />} />
          <Route path="/voters/:id" element={<VoterDetail />} />
          <Route path="/statistics" element={<Statistics />} />
          <Route path="/callbacks" element={<Callbacks />} />
          <Route path="/game-servers" element={<GameServers />} />
          <Route path="/settings" element={<Settings />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </main>
    </AccessContext.Provider>
  );
}
