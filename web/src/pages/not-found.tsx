import { Link } from 'wouter';
import { Page } from '../components/page';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>There is no page at this address.</p>
      <p>
        <Link href="/">Go to the overview</Link> or <Link href="/deployments">the deployments</Link>
        .
      </p>
    </Page>
  );
}
