// A value shown once (a secret, a key, a URL) in a read-only field with a Copy button: used by every page that
// hands the owner something to paste elsewhere.
import { useState } from 'react';

export function CopyField({ label, value, idPrefix = 'copy' }: { label: string; value: string; idPrefix?: string }) {
  const id = `${idPrefix}-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className="copy">
      <label htmlFor={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(e) => e.target.select()} />
      <CopyButton value={value} />
    </div>
  );
}

/** The Copy button, also alone beside a value shown otherwise (a URL wrapped in running text), then with its own `label` and `className`. */
export function CopyButton({ value, label, className }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button type="button" className={className} aria-label={label} onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
