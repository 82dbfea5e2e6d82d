import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { auth } from '../api/auth';
import { allows } from '../api/access';
import type { AnswerOf } from '../api/answers';
import { MFA_PAGE } from '../query-client';

type Viewer = AnswerOf<'viewer'>;

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const active = href === '/' ? location === '/' : location.startsWith(href);
  return (
    <Link href={href} className="nav-link" aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/**
 * The frame of every signed-in page: the product, the navigation, who is signed in and a way
 * out. On a narrow screen the navigation folds behind a Menu button (Escape folds it again).
 */
export function Layout({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);

  useEffect(() => setOpen(false), [location]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const logOut = async () => {
    setLeaving(true);
    try {
      await auth.logOut();
    } finally {
      queryClient.removeQueries();
      navigate('/login', { replace: true });
    }
  };

  const { principal } = viewer;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen(!open)}
        >
          {open ? 'Close' : 'Menu'}
        </button>
        <Link href="/" className="brand">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          Slipway
        </Link>
        <div className="account">
          <span className="who">
            <span className="who-name">{principal.name}</span>{' '}
            <span className="role">{principal.role}</span>
          </span>
          <button type="button" className="button" onClick={logOut} disabled={leaving}>
            Log out
          </button>
        </div>
      </header>
      <div className="body">
        <nav id="main-nav" aria-label="Main" className={open ? 'nav open' : 'nav'}>
          <NavLink href="/">Overview</NavLink>
          <NavLink href="/deployments">Deployments</NavLink>
          <NavLink href="/services">Services</NavLink>
          <NavLink href="/servers">Servers</NavLink>
          {allows(viewer, 'projects') && <NavLink href="/projects">Projects</NavLink>}
          <NavLink href="/approvals">Approvals</NavLink>
          {allows(viewer, 'agents') && <NavLink href="/agents">Agents and tokens</NavLink>}
          {allows(viewer, 'members') && <NavLink href="/members">Members</NavLink>}
          {allows(viewer, 'notificationChannels') && (
            <NavLink href="/notifications">Notifications</NavLink>
          )}
          {allows(viewer, 'auditTrail') && <NavLink href="/audit">Audit trail</NavLink>}
          <NavLink href="/settings/security">Security settings</NavLink>
          <NavLink href={MFA_PAGE}>Two-factor authentication</NavLink>
        </nav>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
