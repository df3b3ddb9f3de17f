import { useState, type FormEvent } from 'react';

/** Where a key comes from, said with every refusal. */
const WHERE_KEYS_COME_FROM =
  "Keys are made by `npm run -s cli -- key create` (run it with the service's own settings: the same .env file) or on the Settings page of a signed-in key.";

/**
 * Asks the service whether it takes the key (the Viewer query): null when it does, else what to tell the owner. A key
 * of the wrong shape is never sent.
 */
async function refusalOf(key: string): Promise<string | null> {
  if (!/^vr_live_[A-Za-z0-9_-]{16,}$/.test(key)) {
    return `This key was not accepted: a Vote Relay API key starts with vr_live_ and is at least 24 characters long. ${WHERE_KEYS_COME_FROM}`;
  }
  let answer: { data?: { viewer?: { scope: string } | null } } | null = null;
  try {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: '{ viewer { scope } }' }),
    });
    answer = await res.json().catch(() => null);
  } catch {
    return 'Vote Relay did not answer: check that the service is running, then sign in again.';
  }
  if (answer?.data?.viewer) return null;
  return `This key was not accepted: no organization of this Vote Relay has it (it may have been revoked, mistyped, or made on another database). ${WHERE_KEYS_COME_FROM}`;
}

/** One field for the API key; Enter submits. The key stays in this tab (sessionStorage) until sign-out. */
export function SignIn({ onSignIn }: { onSignIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = key.trim();
    setChecking(true);
    const refusal = await refusalOf(value);
    setChecking(false);
    if (refusal) {
      setProblem(refusal);
      return;
    }
    onSignIn(value);
  };
  return (
    <main className="signin">
      <h1>Vote Relay</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby={problem ? 'key-problem' : undefined}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the sign-in page is this one field and its button, so the key can be typed or pasted at once (the keyboard test in test/integration/dashboard.test.ts expects it).
          autoFocus
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="vr_live_…"
          aria-invalid={problem !== null}
        />
        {problem && (
          <p id="key-problem" className="field-error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <p className="hint">A read key shows everything; a full key may change everything. The key is kept only in this browser tab.</p>
    </main>
  );
}
