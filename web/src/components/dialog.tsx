import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the browser's own `<dialog>`: `showModal` keeps the focus inside and the rest
 * of the page inert, Escape closes it, and on closing the focus goes back to the control that
 * opened it (the element focused when it opened).
 */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // Escape closes the dialog natively; the page then forgets it.
    const onClosed = () => close.current();
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('close', onClosed);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button" onClick={() => close.current()}>
          Close
        </button>
      </div>
      {children}
    </dialog>
  );
}
