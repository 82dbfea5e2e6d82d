import { useQuery } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { query } from './api/client';
import { describeError, needsLogin } from './api/errors';
import { Layout } from './components/layout';
import { useLiveReadModels } from './live/projection-stream';
import { AgentsPage } from './pages/agents';
import { ApprovalsPage } from './pages/approvals';
import { AuditPage } from './pages/audit';
import { DeploymentPage } from './pages/deployment';
import { DeploymentsPage } from './pages/deployments';
import { MembersPage } from './pages/members';
import { MfaPage } from './pages/mfa';
import { NotificationsPage } from './pages/notifications';
import { NotFoundPage } from './pages/not-found';
import { OverviewPage } from './pages/overview';
import { ProjectsPage } from './pages/projects';
import { SecurityPage } from './pages/security';
import { ServersPage } from './pages/servers';
import { ServicesPage } from './pages/services';
import { prefetchOverview } from './pages/overview-queries';
import { MFA_PAGE, queryClient } from './query-client';

const viewerQuery = { queryKey: ['viewer'], queryFn: () => query('viewer') };

// As soon as the signed-in pages load: who is calling and, on the overview, what it shows, at
// once (not one after the other).
void queryClient.prefetchQuery(viewerQuery);
if (window.location.pathname === '/') prefetchOverview(queryClient);

/** Asks who is calling; without a session the query's 401 sends the browser to the login. */
export function SignedIn() {
  const viewer = useQuery(viewerQuery);
  useLiveReadModels();
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
        <Route path="/servers" component={ServersPage} />
        <Route path="/projects" component={ProjectsPage} />
        <Route path="/services" component={ServicesPage} />
        <Route path="/approvals" component={ApprovalsPage} />
        <Route path="/agents" component={AgentsPage} />
        <Route path="/members" component={MembersPage} />
        <Route path="/audit" component={AuditPage} />
        <Route path="/notifications" component={NotificationsPage} />
        <Route path="/settings/security" component={SecurityPage} />
        <Route path={MFA_PAGE} component={MfaPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Layout>
  );
}
