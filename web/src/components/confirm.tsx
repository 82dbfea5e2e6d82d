import type { ReactNode } from 'react';

/**
 * The second step of an action that cannot be undone: what it does, a button that does it, and a
 * way back. It takes the place of the buttons that asked, so the group is named as the question
 * and a screen reader says what is being confirmed.
 */
export function Confirm({
  question,
  note,
  pending,
  onConfirm,
  onKeep,
  children,
  className = 'button-row',
}: {
  /** The group's name: `Remove web-1?`. */
  question: string;
  /** What it does, in words before the buttons. */
  note?: ReactNode;
  /** While the call is under way the button is disabled, so it is not sent twice. */
  pending: boolean;
  onConfirm: () => void;
  onKeep: () => void;
  /** The confirming button's words: `Yes, remove web-1`. */
  children: ReactNode;
  /** `row-actions` in a table row, where the buttons are smaller. */
  className?: 'button-row' | 'row-actions';
}) {
  return (
    <div className={className} role="group" aria-label={question}>
      {note && <span className="confirm-text">{note}</span>}
      <button type="button" className="button danger" disabled={pending} onClick={onConfirm}>
        {children}
      </button>
      <button type="button" className="button" onClick={onKeep}>
        Keep it
      </button>
    </div>
  );
}
