/** The compose project name of a service in an environment, as the runner deploys it. */
export function composeProject(serviceName: string, environment: string): string {
  return `${serviceName}-${environment}`.replace(/[^a-z0-9_-]/g, '-');
}
