import { Inject, Injectable, Logger } from '@nestjs/common';
import { logText } from '../common/log-text.js';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import { systemContext, type RequestContext } from '../kernel/request-context.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeploymentLogStore } from '../deployments/deployment-log-store.js';
import { DeploymentLookup } from '../deployments/deployment-lookup.js';
import { DeploymentStateMachine } from '../deployments/deployment-state-machine.js';
import {
  ComposePolicyGuard,
  describeRefusal,
} from '../deployments/compose-policy/compose-policy.guard.js';
import { AddressGate } from '../deployments/reach/address-gate.js';
import { GENERIC_FAILURES } from '../deployments/reach/connection-failures.js';
import { pinHealthUrl } from '../deployments/reach/health-check-url.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { contextTarball } from '../deployments/uploads/uploads.js';
import { deploymentSteps, digestFrom } from './deployment-steps.js';
import { EdgeProxy } from './edge/edge-proxy.js';
import { LogWriter } from './log-writer.js';
import { ServerSessions } from './server-sessions.js';
import type { SshSession } from './ssh-session.js';

const logger = new Logger('Runner');

export function runnerContext(deploymentId: string): RequestContext {
  return systemContext(`runner:${deploymentId}`, `deployment:${deploymentId}`);
}

/** Why a run stopped early: a cancellation asked for by a user, or the watchdog. */
export class RunControl {
  readonly abort = new AbortController();
  cancelReason: string | null = null;
  watchdogReason: string | null = null;
}

/**
 * Runs one started deployment on its server: connect (host key pinned), the steps in order with
 * their output in the log store, a check for cancellation between steps, a watchdog that fails
 * a step without output for too long, then succeed or fail.
 */
@Injectable()
export class DeploymentExecutor {
  constructor(
    private readonly machine: DeploymentStateMachine,
    private readonly lookup: DeploymentLookup,
    private readonly logs: DeploymentLogStore,
    private readonly gate: AddressGate,
    private readonly sessions: ServerSessions,
    private readonly policy: ComposePolicyGuard,
    private readonly edge: EdgeProxy,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(deployment: DeploymentDoc, control: RunControl): Promise<void> {
    const ctx = runnerContext(deployment.id);
    const log = new LogWriter(this.logs, deployment.id, this.clock);
    const id = deployment.id;
    let step = 'compose-policy';
    let session: SshSession | null = null;
    try {
      const server = await this.lookup.server(deployment.serverId);
      // The policy may have narrowed since the deployment was queued: it decides at run time.
      const refused = this.policy.refusals(deployment.snapshot.compose, server);
      if (refused.length) throw new Error(describeRefusal(refused, server.name));
      step = 'connect';
      await this.machine.apply({ kind: 'stepStarted', deploymentId: id, step }, ctx);
      if (!server.hostKeyApproved)
        throw new Error(`the host key of ${server.name} is not approved`);
      session = await this.sessions.open(server);
      log.write(
        step,
        'stdout',
        `connected to ${server.sshUser}@${server.host}:${server.sshPort} (${server.hostKeyFingerprint})`,
      );
      await this.machine.apply(
        { kind: 'stepFinished', deploymentId: id, step, ok: true, detail: null },
        ctx,
      );
      let digest: string | null = null;
      const healthUrl = deployment.snapshot.healthCheckUrl;
      step = healthUrl ? 'http-probe' : step;
      const probe = healthUrl ? await pinHealthUrl(this.gate, healthUrl) : null;
      const context = deployment.snapshot.context;
      const localContext = context ? contextTarball(this.config.dataDir, context.uploadId) : null;
      const steps = deploymentSteps(deployment, this.config.runner, this.box, probe, localContext);
      for (const remote of steps) {
        if (await this.cancelled(id, control))
          return await this.finishCancelled(id, control, log, ctx);
        step = remote.name;
        await this.machine.apply({ kind: 'stepStarted', deploymentId: id, step }, ctx);
        const stdout: string[] = [];
        const watchdog = this.watchdog(control);
        const result = await session.exec(remote.args, {
          stdin: remote.stdin,
          signal: control.abort.signal,
          onLine: (stream, text) => {
            watchdog.progress();
            if (stream === 'stdout') stdout.push(text);
            log.write(step, stream, text);
          },
        });
        if (remote.upload && result.code === 0) {
          const { localPath, remotePath } = remote.upload;
          const sent = await session.upload(localPath, remotePath, control.abort.signal);
          log.write(step, 'stdout', `copied ${sent} bytes to ${remotePath} over SFTP`);
        }
        watchdog.stop();
        if (control.watchdogReason) throw new Error(control.watchdogReason);
        if (control.abort.signal.aborted) return await this.finishCancelled(id, control, log, ctx);
        const problem =
          result.code !== 0
            ? `${step} exited with ${result.code ?? `signal ${result.signal}`}`
            : (remote.check?.(stdout) ?? null);
        await this.machine.apply(
          { kind: 'stepFinished', deploymentId: id, step, ok: problem === null, detail: problem },
          ctx,
        );
        if (problem) throw new Error(problem);
        if (step === 'record-digest') digest = digestFrom(stdout, deployment.imageRef);
      }
      if (deployment.snapshot.routes?.length) {
        step = 'edge-sync';
        await this.syncEdge(deployment, log, ctx);
      }
      await log.flush();
      await this.machine.apply(
        {
          kind: 'succeed',
          deploymentId: id,
          serviceId: deployment.serviceId,
          imageRef: deployment.imageRef,
          imageDigest: digest,
        },
        ctx,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // The log is for everyone who reads deployments; the detailed reason only for admins.
      log.write(step, 'stderr', `slipway: ${GENERIC_FAILURES[step] ?? reason}`);
      await log.flush();
      logger.warn(`Deployment ${id} failed at ${step}: ${logText(reason)}`);
      await this.machine
        .apply({ kind: 'fail', deploymentId: id, reason, step }, ctx)
        .catch(() => undefined);
    } finally {
      session?.close();
    }
  }

  /** Brings the server's edge proxy up to the service's routes (started on a first deploy). */
  private async syncEdge(deployment: DeploymentDoc, log: LogWriter, ctx: RequestContext) {
    const { id } = deployment;
    await this.machine.apply({ kind: 'stepStarted', deploymentId: id, step: 'edge-sync' }, ctx);
    const outcome = await this.edge.sync(deployment.serverId, 'deployment', ctx);
    log.write(
      'edge-sync',
      'stdout',
      `edge proxy: ${outcome.routes} routes, ${outcome.actions.length ? outcome.actions.join(', ') : 'unchanged'}`,
    );
    await this.machine.apply(
      { kind: 'stepFinished', deploymentId: id, step: 'edge-sync', ok: true, detail: null },
      ctx,
    );
  }

  private async cancelled(id: string, control: RunControl): Promise<boolean> {
    if (control.cancelReason) return true;
    const current = await this.lookup.deployment(id);
    if (current.cancelRequested) control.cancelReason = current.failureReason ?? 'cancelled';
    return current.cancelRequested;
  }

  private async finishCancelled(
    id: string,
    control: RunControl,
    log: LogWriter,
    ctx: RequestContext,
  ): Promise<void> {
    log.write('cancel', 'stdout', 'slipway: cancelled; remaining steps skipped');
    await log.flush();
    await this.machine.apply(
      { kind: 'confirmCancelled', deploymentId: id, reason: control.cancelReason ?? 'cancelled' },
      ctx,
    );
  }

  private watchdog(control: RunControl) {
    const limit = this.config.runner.stepTimeoutSeconds * 1000;
    let timer = setTimeout(fire, limit);
    function fire(): void {
      control.watchdogReason = `watchdog: no progress for ${limit / 1000} s`;
      control.abort.abort();
    }
    return {
      progress: () => {
        clearTimeout(timer);
        timer = setTimeout(fire, limit);
      },
      stop: () => clearTimeout(timer),
    };
  }
}
