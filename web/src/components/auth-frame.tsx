import { useRef, type ReactNode } from 'react';
import { useTitleFocus } from './page';

/** The pages for getting in: one narrow card, the product's name, the page's title. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useTitleFocus(title, heading);
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="auth-brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          Slipway
        </p>
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </div>
    </main>
  );
}
