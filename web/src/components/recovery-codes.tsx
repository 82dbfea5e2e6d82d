/** Saves the codes as a text file the browser downloads (nothing leaves the page). */
export function downloadCodes(codes: string[]): void {
  const text = `Slipway recovery codes (${window.location.host})\nEach works once, in place of a code from the authenticator.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'slipway-recovery-codes.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Ten recovery codes, shown once, with a download and a copy. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button type="button" className="button" onClick={() => downloadCodes(codes)}>
          Download as a text file
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}
        >
          Copy
        </button>
      </div>
    </>
  );
}
