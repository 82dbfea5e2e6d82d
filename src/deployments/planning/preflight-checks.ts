import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { ComposeViolation } from '../compose-policy/compose-capabilities.js';
import type { ConnectionReport } from '../reach/connection-report.js';
import { capabilitiesOf } from '../compose-policy/compose-policy.guard.js';
import type { ComposeResult } from '../compose.js';
import type { RecordedEnvVar } from '../../events/deployments.events.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';
import { fail, ok, warn, type PreflightCheck } from './plan.js';

export function serverChecks(server: ServerDoc | null): PreflightCheck[] {
  if (!server) return [fail('server-registered', 'the target server is not registered')];
  return [
    ok('server-registered', `${server.name} (${server.sshUser}@${server.host}:${server.sshPort})`),
    server.hostKeyApproved
      ? ok('host-key-approved', `pinned ${server.hostKeyFingerprint} approved`)
      : fail(
          'host-key-approved',
          `approve ${server.hostKeyFingerprint} first (slipway servers approve-host-key)`,
        ),
  ];
}

/**
 * `server-reachable`: the plan's key exchange with the server (no login, nothing run), or a
 * warning that server checks are off (`report` null). A failure fails the plan: the deployment
 * would fail at `connect`.
 */
export function reachabilityCheck(report: ConnectionReport | null): PreflightCheck {
  if (!report)
    return warn(
      'server-reachable',
      'not checked: server checks are off (SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS=0)',
    );
  if (report.ok)
    return ok(
      'server-reachable',
      `SSH answered at ${report.address} in ${report.latencyMs} ms with the pinned host key (key exchange only; slipway servers check also logs in)`,
    );
  const error = report.error!;
  return fail(
    'server-reachable',
    error.class === 'connect-failed' ? error.message : `${error.class}: ${error.message}`,
  );
}

export function imageChecks(imageRef: string, service: ServiceDoc): PreflightCheck[] {
  const ref = parseImageReference(imageRef);
  if (!ref)
    return [
      fail('image-reference-valid', `${imageRef} is not an image reference with a tag or digest`),
    ];
  const repository = repositoryOf(ref);
  return [
    ok('image-reference-valid', imageRef),
    repository === service.imageRepository
      ? ok('image-repository-matches', repository)
      : fail(
          'image-repository-matches',
          `${repository} is not the service's repository ${service.imageRepository}`,
        ),
  ];
}

/**
 * `compose-valid` (read as Compose reads it, with the variables it reads but the service does
 * not set named); with the service's repository (a deployment of an image tag, which brings no
 * build context), `compose-names-image` and `compose-builds`.
 */
export function composeChecks(result: ComposeResult, repository: string | null): PreflightCheck[] {
  if (!result.ok)
    return [fail('compose-valid', result.issues.map((i) => `${i.path}: ${i.message}`).join('; '))];
  const { services, unset } = result.summary;
  const described = `${services.length} service(s): ${services.map((s) => s.name).join(', ')}`;
  const checks = [
    unset.length
      ? warn(
          'compose-valid',
          `${described}; reads ${unset.join(', ')}, which the service does not set (read as empty)`,
        )
      : ok('compose-valid', described),
  ];
  if (repository === null) return checks;
  const builders = services.filter((s) => s.image === null).map((s) => s.name);
  if (builders.length)
    checks.push(
      fail(
        'compose-builds',
        `${builders.join(', ')} build(s) its image (build: without image:): a deployment of a tag brings no build context; deploy with one (POST /api/v1/deploy/compose with contextUploadId)`,
      ),
    );
  const uses = result.summary.services.filter((s) => {
    const ref = s.image === null ? null : parseImageReference(s.image);
    return ref && repositoryOf(ref) === repository;
  });
  checks.push(
    uses.length
      ? ok('compose-names-image', `${uses.map((s) => s.name).join(', ')} run(s) ${repository}`)
      : fail('compose-names-image', `no compose service uses ${repository}`),
  );
  return checks;
}

export function envChecks(env: RecordedEnvVar[], box: SecretBox): PreflightCheck[] {
  const broken = env.filter((v) => {
    if (!v.secretCiphertext) return false;
    try {
      box.open(v.secretCiphertext);
      return false;
    } catch {
      return true;
    }
  });
  return [
    broken.length
      ? fail(
          'env-vars-resolve',
          `cannot decrypt ${broken.map((v) => v.name).join(', ')} (was the secret key changed?)`,
        )
      : ok(
          'env-vars-resolve',
          `${env.length} variable(s), ${env.filter((v) => v.secretCiphertext).length} secret`,
        ),
  ];
}

export function queueCheck(active: number): PreflightCheck {
  return active === 0
    ? ok('no-deployment-running', 'nothing queued or running for this service')
    : warn(
        'no-deployment-running',
        `${active} deployment(s) queued or running; this one would wait behind them (FIFO)`,
      );
}

export function approvalCheck(required: boolean, rule: string): PreflightCheck {
  return required
    ? warn(
        'approval',
        `the service rule "${rule}" turns this into an approval request for someone with approvals:decide`,
      )
    : ok('approval', `not needed (rule "${rule}")`);
}

/** Fails when the compose definition asks for what the server's compose policy refuses. */
export function composePolicyCheck(refused: ComposeViolation[], server: ServerDoc): PreflightCheck {
  if (refused.length === 0) {
    const allowed = server.composePolicy?.allow ?? [];
    return ok(
      'compose-policy',
      allowed.length
        ? `within what ${server.name} allows (${allowed.join(', ')})`
        : `asks for nothing ${server.name} refuses`,
    );
  }
  return fail(
    'compose-policy',
    `${server.name} does not allow ${capabilitiesOf(refused).join(', ')}: ` +
      refused.map((v) => `${v.path} ${v.message}`).join('; ') +
      ' (an owner or admin can allow it: setServerComposePolicy)',
  );
}
