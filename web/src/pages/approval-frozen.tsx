import type { AnswerOf } from '../api/answers';

type Frozen = AnswerOf<'approvalQueue'>['items'][number]['frozen'];

/**
 * What approving a request runs, as the request froze it: the reason above it is only what its
 * requester wrote. For a waiting request, what differs from what runs now.
 */
export function FrozenRequest({ frozen, id }: { frozen: Frozen; id: string }) {
  const { changes, restore } = frozen;
  return (
    <div className="frozen">
      {frozen.stale && (
        <div className="alert alert-warning" role="status">
          <p>
            The service changed since this was requested: approving it is refused. Ask for it again.
          </p>
        </div>
      )}
      <dl className="facts">
        {restore ? (
          <>
            <dt>Restores</dt>
            <dd>
              backup <code>{restore.backupId.slice(0, 8)}</code>
              {restore.takenAt && ` taken ${restore.takenAt}`}
            </dd>
            <dt>Runs</dt>
            <dd>
              {restore.volume ? (
                `the restore script of volume ${restore.volume}`
              ) : (
                <code>{restore.command}</code>
              )}
            </dd>
          </>
        ) : (
          <>
            <dt>Image</dt>
            <dd>
              <code className="image">{frozen.imageRef}</code>
            </dd>
          </>
        )}
        {frozen.server && (
          <>
            <dt>Server</dt>
            <dd>{frozen.server.name ?? frozen.server.id}</dd>
          </>
        )}
        {frozen.snapshotDigest && (
          <>
            <dt>Snapshot</dt>
            <dd>
              <code title={frozen.snapshotDigest}>{frozen.snapshotDigest.slice(0, 19)}</code>
              {frozen.envNames.length > 0 && (
                <span className="muted"> · env {frozen.envNames.join(', ')}</span>
              )}
            </dd>
          </>
        )}
      </dl>
      {changes && (
        <section aria-label={`Changes against what runs now (${id.slice(0, 8)})`}>
          <h3 className="small">
            Against what runs now
            {changes.currentDeploymentId ? '' : ' (nothing deployed yet)'}
          </h3>
          <ul className="small">
            {changes.image && (
              <li>
                image {changes.image.from ?? 'none'} → {changes.image.to}
              </li>
            )}
            {changes.server && <li>another server than the one it runs on</li>}
            {changes.env.map((v) => (
              <li key={v.name}>
                env <code>{v.name}</code> {v.change}
                {v.secret && ' (secret)'}
              </li>
            ))}
            {!changes.image && !changes.server && !changes.compose && changes.env.length === 0 && (
              <li>no change</li>
            )}
          </ul>
          {changes.compose && (
            <details open>
              <summary>Compose changes</summary>
              <pre className="code-block small">{changes.compose}</pre>
            </details>
          )}
        </section>
      )}
    </div>
  );
}
