import { Inject, Injectable, Logger } from '@nestjs/common';
import { logText } from '../common/log-text.js';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { RequestContext } from '../kernel/request-context.js';
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
import { GitBuilds } from './git-builds.js';
import { runnerContext, type RunControl } from './run-control.js';
import { deploymentSteps, digestFrom, type RemoteStep } from './deployment-steps.js';
import { olderDirectoriesKept, pruneOlderStep } from './deployment-directories.js';
import { EdgeCutover } from './edge/edge-cutover.js';
import { LogWriter } from './log-writer.js';
import { ServerSessions } from './server-sessions.js';
import type { SshSession } from './ssh-session.js';

const logger = new Logger('Runner');

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
    private readonly cutover: EdgeCutover,
    private readonly gitBuilds: GitBuilds,
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
    /** The build server's session, when a commit is built on another server. */
    let builder: SshSession | null = null;
    /** What to run should a step fail before the switch (newest last). */
    const undo: string[][] = [];
    /** The step started and not yet recorded as finished. */
    let open: string | null = null;
    try {
      const server = await this.lookup.server(deployment.serverId);
      // The policy may have narrowed since the deployment was queued: it decides at run time.
      const refused = this.policy.refusals(
        deployment.snapshot.compose,
        server,
        deployment.snapshot.env,
      );
      if (refused.length) throw new Error(describeRefusal(refused, server.name));
      step = 'connect';
      await this.machine.apply({ kind: 'stepStarted', deploymentId: id, step }, ctx);
      open = step;
      if (!server.hostKeyApproved)
        throw new Error(`the host key of ${server.name} is not approved`);
      session = await this.sessions.open(server);
      log.write(
        step,
        'stdout',
        `connected to ${server.sshUser}@${server.host}:${server.sshPort} (${server.hostKeyFingerprint})`,
      );
      await this.stepDone(id, step, ctx);
      open = null;
      let digest: string | null = null;
      const building = await this.gitBuilds.openBuilder(deployment);
      if (building) {
        builder = building.session;
        log.write(step, 'stdout', building.said);
      }
      if (deployment.snapshot.git) step = 'build';
      const gitAccess = await this.gitBuilds.access(deployment);
      const healthUrl = deployment.snapshot.healthCheckUrl;
      step = healthUrl ? 'http-probe' : step;
      const probe = healthUrl ? await pinHealthUrl(this.gate, healthUrl) : null;
      const context = deployment.snapshot.context;
      const localContext = context ? contextTarball(this.config.dataDir, context.uploadId) : null;
      const steps = deploymentSteps(
        deployment,
        this.config.runner,
        this.box,
        probe,
        localContext,
        gitAccess,
      );
      // Last, reached only when every step before it succeeded: the older directories go.
      const kept = await olderDirectoriesKept(this.lookup.reads, deployment);
      steps.push(pruneOlderStep(this.config.runner.remoteDir, deployment, kept));
      const outputs = new Map<string, string[]>();
      /** From the switch on, the new version serves: no undo, and a cancel no longer stops it. */
      let switched = false;
      for (const next of steps) {
        if (!switched && (await this.cancelled(id, control)))
          return await this.finishCancelled(id, control, log, ctx, session, undo);
        step = next.name;
        await this.machine.apply({ kind: 'stepStarted', deploymentId: id, step }, ctx);
        open = step;
        if (
          'local' in next &&
          (next.local === 'transfer-image' || next.local === 'repository-compose')
        ) {
          await this.gitBuilds.localStep(next.local, {
            deployment,
            server,
            session,
            builder,
            signal: control.abort.signal,
            log: (text) => log.write(step, 'stdout', text),
          });
          if (control.abort.signal.aborted)
            return await this.finishCancelled(id, control, log, ctx, session, undo);
          await this.stepDone(id, step, ctx);
          open = null;
          continue;
        }
        if ('local' in next) {
          // Whether or not the proxy takes it, the old containers serve until it does: removing
          // the new ones after a switch that half happened could leave nobody serving.
          if (next.local === 'switch') {
            switched = true;
            control.committed = true;
            undo.length = 0;
          }
          const lines = await this.cutover.run(
            next,
            deployment,
            outputs,
            ctx,
            control.abort.signal,
            session,
          );
          for (const line of lines) log.write(step, 'stdout', line);
          await this.stepDone(id, step, ctx);
          open = null;
          continue;
        }
        if (next.undo) undo.push(next.undo);
        const on = next.on === 'builder' && builder ? builder : session;
        const stdout = await this.runRemote(on, next, step, log, control);
        if (control.watchdogReason) throw new Error(control.watchdogReason);
        if (control.abort.signal.aborted)
          return await this.finishCancelled(id, control, log, ctx, session, undo);
        const problem =
          stdout.code !== 0
            ? ((stdout.code !== null ? next.exitReasons?.[stdout.code] : undefined) ??
              `${step} exited with ${stdout.code ?? `signal ${stdout.signal}`}`)
            : (next.check?.(stdout.lines) ?? null);
        await this.machine.apply(
          { kind: 'stepFinished', deploymentId: id, step, ok: problem === null, detail: problem },
          ctx,
        );
        open = null;
        if (problem) throw new Error(problem);
        outputs.set(step, stdout.lines);
        if (step === 'record-digest') digest = digestFrom(stdout.lines, deployment.imageRef);
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
      const shown = GENERIC_FAILURES[step] ?? reason;
      log.write(step, 'stderr', `slipway: ${shown}`);
      // A step that threw (one the control plane runs, a dropped connection) ends failed too.
      if (open)
        await this.machine
          .apply(
            {
              kind: 'stepFinished',
              deploymentId: id,
              step: open,
              ok: false,
              detail: shown.slice(0, 500),
            },
            ctx,
          )
          .catch(() => undefined);
      await this.undo(session, undo, log);
      await log.flush();
      logger.warn(`Deployment ${id} failed at ${step}: ${logText(reason)}`);
      await this.machine
        .apply({ kind: 'fail', deploymentId: id, reason, step }, ctx)
        .catch(() => undefined);
    } finally {
      session?.close();
      builder?.close();
    }
  }

  private stepDone(deploymentId: string, step: string, ctx: RequestContext): Promise<unknown> {
    return this.machine.apply(
      { kind: 'stepFinished', deploymentId, step, ok: true, detail: null },
      ctx,
    );
  }

  /** Runs one remote step under the watchdog, its output in the log; its stdout lines. */
  private async runRemote(
    session: SshSession,
    remote: RemoteStep,
    step: string,
    log: LogWriter,
    control: RunControl,
  ): Promise<{ code: number | null; signal: string | null; lines: string[] }> {
    const lines: string[] = [];
    const watchdog = this.watchdog(control);
    try {
      const result = await session.exec(remote.args, {
        stdin: remote.stdin,
        signal: control.abort.signal,
        onLine: (stream, text) => {
          watchdog.progress();
          if (stream === 'stdout') lines.push(text);
          log.write(step, stream, text);
        },
      });
      if (remote.upload && result.code === 0) {
        const { localPath, remotePath } = remote.upload;
        const sent = await session.upload(localPath, remotePath, control.abort.signal);
        log.write(step, 'stdout', `copied ${sent} bytes to ${remotePath} over SFTP`);
      }
      return { ...result, lines };
    } finally {
      watchdog.stop();
    }
  }

  /**
   * Takes back what the steps before the edge proxy's switch started (the new containers), so
   * that the old version alone goes on serving. Its output goes to the log as `remove-new`.
   */
  private async undo(session: SshSession | null, undo: string[][], log: LogWriter) {
    if (!session) return;
    for (const args of undo.reverse()) {
      const result = await session
        .exec(args, { onLine: (stream, text) => log.write('remove-new', stream, text) })
        .catch((error: unknown) => ({ code: null, signal: String(error) }));
      if (result.code !== 0) log.write('remove-new', 'stderr', 'slipway: could not remove them');
    }
    undo.length = 0;
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
    session: SshSession | null,
    undo: string[][],
  ): Promise<void> {
    log.write('cancel', 'stdout', 'slipway: cancelled; remaining steps skipped');
    await this.undo(session, undo, log);
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
