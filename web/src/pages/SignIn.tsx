import { useState, type FormEvent } from 'react';

/** One field for the API key; Enter submits. The key stays in this tab (sessionStorage) until sign-out. */
export function SignIn({ onSignIn }: { onSignIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = key.trim();
    if (!/^vr_live_[A-Za-z0-9_-]{16,}$/.test(value)) {
      setProblem('An API key starts with vr_live_ (create one with `npm run -s cli -- key create` or in Settings).');
      return;
    }
    onSignIn(value);
  };
  return (
    <main className="signin">
      <h1>Vote Relay</h1>
      <form onSubmit={submit} aria-describedby={problem ? 'key-problem' : undefined}>
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
        <button type="submit">Sign in</button>
      </form>
      <p className="hint">A read key shows everything; a full key may change everything. The key is kept only in this browser tab.</p>
    </main>
  );
}
