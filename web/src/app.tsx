import { useQuery } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { query } from './api/client';
import { describeError, needsLogin } from './api/errors';
import { Layout } from './components/layout';
import { DeploymentPage } from './pages/deployment';
import { DeploymentsPage } from './pages/deployments';
import { FirstRunPage } from './pages/first-run';
import { ForgotPasswordPage } from './pages/forgot-password';
import { LoginPage } from './pages/login';
import { MfaPage } from './pages/mfa';
import { NotFoundPage } from './pages/not-found';
import { OverviewPage } from './pages/overview';
import { ResetPasswordPage } from './pages/reset-password';
import { MFA_PAGE } from './query-client';

/** The pages: four for getting in, the rest behind a session. */
export function App() {
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/setup" component={FirstRunPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route>
        <SignedIn />
      </Route>
    </Switch>
  );
}

/** Asks who is calling; without a session the query's 401 sends the browser to the login. */
function SignedIn() {
  const viewer = useQuery({ queryKey: ['viewer'], queryFn: () => query('viewer') });
  if (viewer.isPending) {
    return (
      <p className="splash" role="status">
        Loading…
      </p>
    );
  }
  if (viewer.isError) {
    if (needsLogin(viewer.error)) return null;
    return (
      <div className="splash alert alert-error" role="alert">
        {describeError(viewer.error)} <button onClick={() => viewer.refetch()}>Try again</button>
      </div>
    );
  }
  return (
    <Layout viewer={viewer.data}>
      <Switch>
        <Route path="/" component={OverviewPage} />
        <Route path="/deployments" component={DeploymentsPage} />
        <Route path="/deployments/:id" component={DeploymentPage} />
        <Route path={MFA_PAGE} component={MfaPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Layout>
  );
}
