import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { flushSync } from 'react-dom';

/**
 * A modal dialog on the browser's own `<dialog>`: `showModal` keeps the focus inside and the rest
 * of the page inert, Escape closes it, and on closing the focus goes back to the control that
 * opened it (the element focused when it opened).
 *
 * Escape is handled on `cancel`, by the page: the browser's own `close` event comes a task later,
 * and a user who reopens the dialog in between (Escape, then Enter on the opener at once) would
 * have the late event close the new one. So the page forgets the dialog at once (`flushSync`),
 * and the listeners go with it (a layout effect's cleanup runs as the dialog is removed).
 */
export function Dialog({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Wider than a form's width, for a dialog of lists and forms side by side. */
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      flushSync(() => close.current());
    };
    // Any other way the browser closes it (a form with method="dialog").
    const onClosed = () => close.current();
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClosed);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId}>
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
