import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { ServerDoc } from '../../projections/servers.projection.js';
import { validateCompose } from '../deployments/compose.js';
import {
  judgingVariables,
  runningVariables,
} from '../deployments/compose-reading/compose-variables.js';
import { COMPOSE_LIMITS } from '../deployments/compose-limits.js';
import {
  ComposePolicyGuard,
  describeRefusal,
} from '../deployments/compose-policy/compose-policy.guard.js';
import { isMap, type ComposeMap } from '../deployments/compose-reading/compose-merge.js';
import { previewCompose } from '../deployments/git/previews/preview-compose.js';
import { routeIssues, routeValues } from '../deployments/routes/route-rules.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import {
  buildDocuments,
  buildsOutsideCheckout,
  rootedBuildPaths,
  serviceImage,
} from './compose-builds.js';
import { composeDocumentForDeployment, composeText } from './compose-image.js';
import { composeProject } from '../deployments/compose-project.js';
import { imageIsOn } from './image-transfer.js';
import { RepositoryBuilds } from './repository-builds.js';
import type { SshSession } from './ssh-session.js';

/** Reads the file the build kept, base64 on one line, at most one character over the limit. */
const READ_KEPT = `f="$1/repository-compose.yaml"
[ -f "$f" ] || exit 3
head -c "$2" "$f" | base64 -w0
rm -f "$f"`;

const NOT_KEPT = 3;

/** What a repository compose step is given besides the deployment: sessions, signal, log. */
export interface RepositoryComposeRun {
  /** Where the commit was built (the build server, or the deployment's server). */
  built: SshSession;
  target: SshSession;
  signal: AbortSignal;
  log: (text: string) => void;
}

/**
 * The compose file a deployment of a commit runs when its source names one: the repository's, as
 * the build kept it at that commit (on the server that built it), never the service's. It is
 * judged as what will run, at run time: read within the compose limits, validated, made a
 * preview's when the deployment is one (no published ports or container names, the previews'
 * limits), its routes checked against it, and held to the deployment server's compose policy;
 * its services that build (`build:` without `image:`) built from the checkout (RepositoryBuilds);
 * then written as the deployment's compose.yaml. Its text is never logged (a compose file may
 * carry values nobody meant for the log): only its path, commit and SHA-256.
 */
@Injectable()
export class RepositoryCompose {
  constructor(
    private readonly policy: ComposePolicyGuard,
    private readonly builds: RepositoryBuilds,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async write(
    deployment: DeploymentDoc,
    server: ServerDoc,
    dir: string,
    run: RepositoryComposeRun,
  ): Promise<void> {
    const git = deployment.snapshot.git;
    if (!git?.composeFile) throw new Error('the deployment names no repository compose file');
    const where = `${git.composeFile} at ${git.commit.slice(0, 12)}`;
    const kept = await this.read(run.built, dir, where);
    // Build contexts as the build reads them: from the repository's root.
    const text = rootedBuildPaths(kept, git.composeFile);
    const env = deployment.snapshot.env;
    const checked = validateCompose(text, judgingVariables(env));
    if (!checked.ok)
      throw new Error(
        `the repository's ${where} is not a compose definition Slipway runs: ${checked.issues
          .slice(0, 5)
          .map((i) => `${i.path}: ${i.message}`)
          .join('; ')}`,
      );
    const compose = git.previewLimits ? previewCompose(text, git.previewLimits) : text;
    if (compose === null) throw new Error(`the repository's ${where} cannot be previewed`);
    const routes = deployment.snapshot.routes ?? [];
    // A preview's definition is another document: read again; otherwise the one just checked.
    const summary = compose === text ? checked : validateCompose(compose, judgingVariables(env));
    const misfits = summary.ok ? routeIssues(routeValues(routes), summary.summary) : [];
    if (misfits.length)
      throw new Error(
        `the service's routes do not fit the repository's ${where}: ${misfits.map((i) => i.message).join('; ')}`,
      );
    const refused = this.policy.refusals(compose, server, env);
    if (refused.length) throw new Error(describeRefusal(refused, server.name));
    const project = composeProject(deployment.serviceName, deployment.environment);
    const builtHere = git.pushImage !== true;
    const document = composeDocumentForDeployment(
      compose,
      runningVariables(env, (sealed) => this.box.open(sealed)),
      deployment.imageRef,
      { project, routes },
      builtHere,
    );
    const outside = buildsOutsideCheckout(document);
    if (outside.length)
      throw new Error(
        `the repository's ${where} builds from ${outside.join(', ')}: outside the repository`,
      );
    const images = new Map(
      checked.summary.services
        .filter((s) => s.image === null)
        .map((s) => [s.name, serviceImage(deployment.imageRef, s.name)] as const),
    );
    const { build, run: final } = buildDocuments(document, images, builtHere);
    await this.commitImageIsThere(deployment, final, run.built, where);
    if (images.size)
      await this.builds.run({
        ...run,
        dir,
        project,
        document: build,
        images,
        push: git.pushImage === true,
      });
    if (run.signal.aborted) return;
    const result = await run.target.exec(
      ['sh', '-c', 'umask 077 && mkdir -p "$1" && cat > "$1/compose.yaml"', 'slipway', dir],
      { stdin: composeText(final), onLine: () => undefined },
    );
    if (result.code !== 0) throw new Error('the compose file could not be written on the server');
    const sha256 = createHash('sha256').update(kept).digest('hex');
    run.log(
      `compose.yaml from the repository: ${where} (sha256 ${sha256.slice(0, 16)}…), allowed on ${server.name}`,
    );
  }

  /**
   * The commit's own image, when a service runs it: the build skips it when the repository has
   * no Dockerfile where the source says (its compose file's services build their own).
   */
  private async commitImageIsThere(
    deployment: DeploymentDoc,
    document: ComposeMap,
    built: SshSession,
    where: string,
  ): Promise<void> {
    const services = isMap(document.services) ? document.services : {};
    const runners = Object.entries(services)
      .filter(([, s]) => isMap(s) && s.image === deployment.imageRef)
      .map(([name]) => name);
    if (!runners.length) return;
    const git = deployment.snapshot.git;
    if (!(await imageIsOn(built, deployment.imageRef)))
      throw new Error(
        `${runners.join(', ')} in the repository's ${where} run ${deployment.imageRef}, which was not built: the repository has no ${git?.dockerfile ?? 'Dockerfile'} in ${git?.contextPath ?? '.'}`,
      );
  }

  private async read(session: SshSession, dir: string, where: string): Promise<string> {
    const out: string[] = [];
    const result = await session.exec(
      // Bytes: up to four a character, and one more to tell a file over the limit.
      ['sh', '-c', READ_KEPT, 'slipway', dir, String(4 * COMPOSE_LIMITS.maxChars + 1)],
      { onLine: (stream, line) => void (stream === 'stdout' && out.push(line)) },
    );
    if (result.code === NOT_KEPT) throw new Error(`the build kept no ${where}`);
    if (result.code !== 0) throw new Error(`the repository's ${where} could not be read`);
    const text = Buffer.from(out.join(''), 'base64').toString('utf8');
    if (text.length > COMPOSE_LIMITS.maxChars)
      throw new Error(
        `the repository's ${where} is longer than ${COMPOSE_LIMITS.maxChars} characters`,
      );
    return text;
  }
}
