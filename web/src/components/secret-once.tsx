import { useState } from 'react';

/** A token value, shown this once, with a button that copies it. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="alert alert-warning" role="status">
      <p>
        <strong>{label}</strong> Copy it now: it is shown this once and cannot be read again.
      </p>
      <div className="token-value">
        <code data-testid="token-value">{value}</code>
        <button type="button" className="button" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copied === 'failed' && (
        <p>The browser refused the clipboard: select the value and copy it.</p>
      )}
    </div>
  );
}
