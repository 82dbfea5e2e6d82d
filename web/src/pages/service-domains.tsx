import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import { When } from '../components/time';

type Service = AnswerOf<'infrastructureInventory'>['servers'][number]['services'][number];
type Route = Service['routes'][number];
type Certificate = AnswerOf<'serviceDetails'>['certificates'][number];

const https = (r: Route) => (r.tls ?? 'auto') === 'auto';
const urlOf = (r: Route) => `${https(r) ? 'https' : 'http'}://${r.domain}${r.pathPrefix ?? ''}`;

/** The issuer's organisation (or common name) out of its distinguished name. */
function issuerName(dn: string): string {
  const part = (key: string) => new RegExp(`(?:^|[,/\\n]\\s*)${key}=([^,/\\n]+)`).exec(dn)?.[1];
  return (part('O') ?? part('CN') ?? dn).trim();
}

/**
 * The "Domains" fact of a service card: each route as the address it answers on → the compose
 * service and port, and for each HTTPS domain the state of its certificate (read from
 * `serviceDetails`, asked only when the service has one).
 */
export function ServiceDomains({ service }: { service: Service }) {
  const withTls = service.routes.some(https);
  const details = useQuery({
    queryKey: ['serviceDetails', service.id],
    queryFn: () => query('serviceDetails', { serviceId: service.id }),
    enabled: withTls,
  });
  if (service.routes.length === 0) return null;
  const domains = [...new Set(service.routes.map((r) => r.domain))];
  return (
    <div className="fact-wide">
      <dt>Domains</dt>
      <dd>
        <ul className="domain-list">
          {domains.map((domain) => {
            const routes = service.routes.filter((r) => r.domain === domain);
            const certificate = details.data?.certificates.find((c) => c.domain === domain);
            return (
              <li key={domain}>
                {routes.map((r) => (
                  <div key={urlOf(r)}>
                    <a href={urlOf(r)} target="_blank" rel="noreferrer">
                      {urlOf(r)}
                    </a>{' '}
                    →{' '}
                    <code>
                      {r.service}:{r.port}
                    </code>
                    {r.hsts && <span className="muted small"> (HSTS)</span>}
                  </div>
                ))}
                {routes.some(https) && (
                  <CertificateState certificate={certificate} unknown={details.isError} />
                )}
              </li>
            );
          })}
        </ul>
      </dd>
    </div>
  );
}

function CertificateState({
  certificate,
  unknown,
}: {
  certificate: Certificate | undefined;
  unknown: boolean;
}) {
  if (!certificate) {
    return unknown ? <p className="certificate muted">Certificate state unknown.</p> : null;
  }
  if (certificate.status === 'pending') {
    return <p className="certificate muted">Obtaining a certificate…</p>;
  }
  const issuer = certificate.issuer && (
    <span title={certificate.issuer}>{issuerName(certificate.issuer)}</span>
  );
  const expires = certificate.notAfter && <When at={certificate.notAfter} />;
  if (certificate.status === 'failing') {
    return (
      <p className="certificate">
        <span className="error-text">Certificate failing: {certificate.lastError}</span> (
        <When at={certificate.lastErrorAt} />)
        {issuer && expires && (
          <span className="muted">
            ; the current one, from {issuer}, expires {expires}
          </span>
        )}
      </p>
    );
  }
  return (
    <p className="certificate">
      Certificate from {issuer ?? 'an unknown issuer'}
      {expires && <>, expires {expires}</>}
    </p>
  );
}
