import type { AnswerOf } from '../api/answers';
import { When } from '../components/time';

type Service = AnswerOf<'infrastructureInventory'>['servers'][number]['services'][number];
type GitSource = NonNullable<Service['gitSource']>;

const authText: Record<GitSource['auth'], string> = {
  'deploy-key': 'deploy key',
  token: 'access token (sealed)',
  none: 'no credentials',
};

/**
 * The "Source" fact of a service card: the repository it follows, how Slipway reads it (the
 * deploy key's public half to add at the host; never a token or private key) and which pushes
 * deploy.
 */
export function ServiceSource({ service }: { service: Service }) {
  const source = service.gitSource;
  if (!source) return null;
  return (
    <div className="fact-wide">
      <dt>Source</dt>
      <dd className="git-source">
        <div>
          <code>{source.repository}</code>{' '}
          <span className="muted small">({authText[source.auth]})</span>
        </div>
        {source.deployKey && (
          <div>
            Deploy key{' '}
            <code title={source.deployKey.publicKey}>{source.deployKey.fingerprint}</code>{' '}
            <button
              type="button"
              className="button small"
              onClick={() => void navigator.clipboard?.writeText(source.deployKey?.publicKey ?? '')}
            >
              Copy public key
            </button>
          </div>
        )}
        {source.hostKeyFingerprint && (
          <div className="muted small">
            Host key pinned: <code>{source.hostKeyFingerprint}</code>
          </div>
        )}
        <div className="muted small">
          {source.webhook ? (
            <>
              Push webhook: <code>{`${window.location.origin}/api/v1/git/push/${service.id}`}</code>
            </>
          ) : (
            'No push webhook: set the source again to make its secret.'
          )}
        </div>
        <ul className="rule-list">
          {source.rules.length === 0 && <li className="muted">No rules: no push deploys.</li>}
          {source.rules.map((r) => (
            <li key={`${r.kind}:${r.pattern}`}>
              {r.kind} <code>{r.pattern}</code> →{' '}
              {r.action === 'approval' ? 'deploy after approval' : r.action}
            </li>
          ))}
        </ul>
        {source.previews && (
          <div className="muted small">
            Pull requests previewed on <code>pr-&lt;n&gt;.{source.previews.baseDomain}</code> (at
            most {source.previews.limit}, torn down {source.previews.ttlHours} h after their last
            push)
          </div>
        )}
        <div className="muted small">
          Builds <code>{source.dockerfile}</code> (context <code>{source.contextPath}</code>)
          {source.composeFile && (
            <>
              {' '}
              and runs the repository’s <code>{source.composeFile}</code>
            </>
          )}
          , set <When at={source.setAt} />
        </div>
      </dd>
    </div>
  );
}
