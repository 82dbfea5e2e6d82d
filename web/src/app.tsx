import { useEffect, useState } from 'react';
import { Route, Switch } from 'wouter';
import { FirstRunPage } from './pages/first-run';
import { ForgotPasswordPage } from './pages/forgot-password';
import { LoginPage } from './pages/login';
import { ResetPasswordPage } from './pages/reset-password';
import { AcceptInvitePage } from './pages/accept-invite';

type SignedInModule = typeof import('./signed-in');
let signedIn: SignedInModule | null = null;
const loadSignedIn = () =>
  import('./signed-in').then((module) => {
    signedIn = module;
    return module;
  });

/**
 * The signed-in pages, with the tRPC client they call through, load after the first page: the
 * login, where most visits begin, needs neither. (Loaded by hand rather than with React.lazy:
 * a Suspense boundary would hold the reveal back by up to 300 ms.)
 */
function SignedInPages() {
  const [module, setModule] = useState(signedIn);
  useEffect(() => {
    if (!module) void loadSignedIn().then(setModule);
  }, [module]);
  if (!module) {
    return (
      <p className="splash" role="status">
        Loading…
      </p>
    );
  }
  return <module.SignedIn />;
}

/** The pages that need no session: a visit elsewhere loads the signed-in pages at once. */
const SIGN_IN_PATHS = ['/login', '/setup', '/forgot-password', '/reset-password', '/accept-invite'];
if (!SIGN_IN_PATHS.includes(window.location.pathname)) void loadSignedIn();

/** The pages: four for getting in, the rest behind a session. */
export function App() {
  // Once a first page is up, fetch the rest while the visitor types.
  useEffect(() => {
    const timer = setTimeout(() => void loadSignedIn(), 500);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/setup" component={FirstRunPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/accept-invite" component={AcceptInvitePage} />
      <Route component={SignedInPages} />
    </Switch>
  );
}
