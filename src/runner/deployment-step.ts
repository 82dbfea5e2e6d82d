/** What a deployment runs, step by step: on the server over SSH, or on the control plane. */

export interface RemoteStep {
  name: string;
  args: string[];
  stdin?: string;
  /** Decides from the step's stdout whether it succeeded, beyond its exit code. */
  check?: (stdout: string[]) => string | null;
  /** After `args` ran: copies a local file to the server over SFTP (mode 0600). */
  upload?: { localPath: string; remotePath: string };
  /** What a non-zero exit code means, said instead of "exited with N". */
  exitReasons?: Record<number, string>;
  /** Runs on the build server instead of the deployment's server. */
  on?: 'builder';
  /** Runs when a later step fails before the edge proxy switched: takes back what this started. */
  undo?: string[];
}

/**
 * A step the control plane runs itself: the edge proxy's sync, its switch, the drain; an image
 * copied from the build server; the repository's compose file judged and written.
 */
export interface LocalStep {
  name: string;
  local: 'edge-sync' | 'switch' | 'drain' | 'unpin' | 'transfer-image' | 'repository-compose';
}

export type DeploymentStep = RemoteStep | LocalStep;
