import { useEffect, useRef, type ReactNode } from 'react';

let firstPage = true;

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
  useEffect(() => {
    document.title = `${title} · Slipway`;
    if (firstPage) firstPage = false;
    else heading.current?.focus();
  }, [title]);
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
