import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { Dialog } from '../components/dialog';
import { DeployPanel } from './deploy-panel';
import { ServiceBackups } from './service-backups';
import { ServiceDomains } from './service-domains';
import { ServicePreviews } from './service-previews';
import { ServiceSource } from './service-source';
import { ServiceHooks } from './service-hooks';
import { ServiceJobs } from './service-jobs';
import { ServiceMetrics } from './service-metrics';
import { ServiceForm } from './service-form';

type Inventory = AnswerOf<'infrastructureInventory'>;
type Service = Inventory['servers'][number]['services'][number];

const RULE_TEXT: Record<string, string> = {
  none: 'none',
  agents: 'deploys by agents need approval',
  'all-but-admins': 'everyone but owners and admins needs approval',
};

function ServiceCard({ service, inventory }: { service: Service; inventory: Inventory }) {
  const can = useCan();
  const [mode, setMode] = useState<'view' | 'edit' | 'deploy' | 'hooks' | 'backups'>('view');
  const [note, setNote] = useState<string | null>(null);
  const server = inventory.servers.find((s) => s.id === service.serverId);
  const headingId = `service-${service.id}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId}>
          {service.name} <span className="muted">{service.environment}</span>
        </h2>
        {service.preview && (
          <span className="muted small">preview of pull request #{service.preview.number}</span>
        )}
        <StatusBadge status={service.health} />
      </div>
      {note && <Done>{note}</Done>}
      <dl className="facts">
        <div>
          <dt>Project</dt>
          <dd>{service.projectId}</dd>
        </div>
        <div>
          <dt>Server</dt>
          <dd>{server?.name ?? service.serverId}</dd>
        </div>
        <div>
          <dt>Running</dt>
          <dd>
            {service.currentImage ? (
              <code className="image">{service.currentImage}</code>
            ) : (
              <span className="muted">nothing deployed yet</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Latest deployment</dt>
          <dd>
            {service.latestDeployment ? (
              <Link href={`/deployments/${service.latestDeployment.id}`}>
                {service.latestDeployment.imageRef} ({service.latestDeployment.status})
              </Link>
            ) : (
              <span className="muted">none</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Approval rule</dt>
          <dd>{RULE_TEXT[service.approvalRule] ?? service.approvalRule}</dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>
            {service.env.length === 0 ? (
              <span className="muted">none</span>
            ) : (
              <ul className="env-list">
                {service.env.map((v) => (
                  <li key={v.name}>
                    <code>{v.name}</code>{' '}
                    {v.secret ? (
                      <span className="masked">secret, not shown</span>
                    ) : (
                      <code>{v.value}</code>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <ServiceDomains service={service} />
        <ServiceSource service={service} />
        {service.gitSource?.previews && can('servicePreviews') && (
          <ServicePreviews serviceId={service.id} />
        )}
      </dl>
      {mode !== 'edit' && (
        <div className="button-row">
          {can('deploymentPlan') && can('triggerDeploy') && (
            <button type="button" className="button primary" onClick={() => setMode('deploy')}>
              Deploy…
            </button>
          )}
          {can('updateService') && (
            <button type="button" className="button" onClick={() => setMode('edit')}>
              Change…
            </button>
          )}
          {can('deployWebhooks') && (
            <button type="button" className="button" onClick={() => setMode('hooks')}>
              Deploy webhooks…
            </button>
          )}
          {can('backups') && (
            <button type="button" className="button" onClick={() => setMode('backups')}>
              Backups…
            </button>
          )}
        </div>
      )}
      {mode === 'deploy' && (
        <Dialog title={`Deploy ${service.name}`} onClose={() => setMode('view')}>
          <DeployPanel
            serviceId={service.id}
            serviceName={service.name}
            repository={service.imageRepository}
          />
        </Dialog>
      )}
      {mode === 'hooks' && (
        <Dialog title={`Deploy webhooks of ${service.name}`} onClose={() => setMode('view')}>
          <ServiceHooks serviceId={service.id} repository={service.imageRepository} />
        </Dialog>
      )}
      {mode === 'backups' && (
        <Dialog title={`Backups of ${service.name}`} onClose={() => setMode('view')} wide>
          <ServiceBackups service={service} servers={inventory.servers} />
        </Dialog>
      )}
      {mode === 'edit' && (
        <ServiceForm
          inventory={inventory}
          service={service}
          onCancel={() => setMode('view')}
          onDone={(message) => {
            setNote(message);
            setMode('view');
          }}
        />
      )}
      {can('scheduledJobs') && <ServiceJobs serviceId={service.id} />}
      {can('serviceMetrics') && <ServiceMetrics serviceId={service.id} />}
    </section>
  );
}

/** Services: register one, change it, deploy it (plan first). */
export function ServicesPage() {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const inventory = useQuery({
    queryKey: ['infrastructureInventory'],
    queryFn: () => query('infrastructureInventory'),
  });
  const services = inventory.data?.servers.flatMap((s) => s.services) ?? [];
  const mayRegister = can('registerService');
  return (
    <Page
      title="Services"
      actions={
        mayRegister &&
        !adding &&
        (inventory.data?.servers.length ?? 0) > 0 && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Register a service
          </button>
        )
      }
    >
      {note && <Done>{note}</Done>}
      {inventory.isPending ? (
        <Loading what="services" />
      ) : inventory.isError ? (
        <FormError error={inventory.error} />
      ) : (
        <>
          {adding && (
            <ServiceForm
              inventory={inventory.data}
              onCancel={() => setAdding(false)}
              onDone={(message) => {
                setAdding(false);
                setNote(message);
              }}
            />
          )}
          {services.length === 0 && !adding && (
            <EmptyState title="No service yet.">
              {inventory.data.servers.length === 0 ? (
                <p>
                  A service runs on a server: <Link href="/servers">register a server</Link> first.
                </p>
              ) : (
                <p>
                  {mayRegister
                    ? 'Register one: its server, image repository, compose file and environment.'
                    : 'An operator, admin or owner registers services; they appear here.'}
                </p>
              )}
            </EmptyState>
          )}
          {services.map((s) => (
            <ServiceCard key={s.id} service={s} inventory={inventory.data} />
          ))}
        </>
      )}
    </Page>
  );
}
