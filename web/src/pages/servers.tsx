import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { S3Targets } from './s3-targets';
import { ServerCard } from './server-card';
import { RegisterServer } from './server-register';

/** Servers: register one, approve its host key after comparing it, check the connection. */
export function ServersPage() {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState(false);
  const inventory = useQuery({
    queryKey: ['infrastructureInventory'],
    queryFn: () => query('infrastructureInventory'),
  });
  const mayRegister = can('registerServer');
  return (
    <Page
      title="Servers"
      actions={
        mayRegister &&
        !adding && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Register a server
          </button>
        )
      }
    >
      {added && <Done>The server is registered. Approve its host key below.</Done>}
      {adding && (
        <RegisterServer
          onDone={() => {
            setAdding(false);
            setAdded(true);
          }}
        />
      )}
      {inventory.isPending ? (
        <Loading what="servers" />
      ) : inventory.isError ? (
        <FormError error={inventory.error} />
      ) : inventory.data.servers.length === 0 ? (
        <EmptyState title="No server yet.">
          <p>
            {mayRegister
              ? 'Register the first one: its SSH address, a user, a private key and the host key fingerprint (Fetch the host key, then compare).'
              : 'An operator, admin or owner registers servers; they appear here.'}
          </p>
        </EmptyState>
      ) : (
        inventory.data.servers.map((s) => <ServerCard key={s.id} server={s} />)
      )}
      <S3Targets />
    </Page>
  );
}
