// A value shown once (a secret, a key, a URL) in a read-only field with a Copy button: used by every page that
// hands the owner something to paste elsewhere.
import { useState } from 'react';

export function CopyField({ label, value, idPrefix = 'copy' }: { label: string; value: string; idPrefix?: string }) {
  const [copied, setCopied] = useState(false);
  const id = `${idPrefix}-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className="copy">
      <label htmlFor={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(e) => e.target.select()} />
      <button type="button" onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** A Copy button alone, beside a value shown otherwise (a URL wrapped in running text). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button type="button" className="secondary" aria-label={label} onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
