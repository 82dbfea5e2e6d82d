import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

let firstPage = true;

/**
 * Titles the tab and, after a navigation (not on the first page shown), gives the page's heading
 * the focus. The pages for getting in count as pages too: after a login the focused button is
 * gone with its page, and without this the keyboard's starting point was wherever it had been.
 */
export function useTitleFocus(title: string, heading: RefObject<HTMLHeadingElement | null>): void {
  useEffect(() => {
    document.title = `${title} · Slipway`;
    if (firstPage) firstPage = false;
    else heading.current?.focus();
  }, [title, heading]);
}

/**
 * A page's title (the tab's too) and content. After a navigation the title takes the focus, so a
 * keyboard or screen-reader user starts at the top of the new page rather than on a stale link.
 */
export function Page({
  title,
  actions,
  children,
  narrow = false,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  narrow?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useTitleFocus(title, heading);
  return (
    <div className={narrow ? 'page page-narrow' : 'page'}>
      <div className="page-header">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </div>
  );
}

/** Says there is nothing here yet, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      <div className="empty-body">{children}</div>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}
