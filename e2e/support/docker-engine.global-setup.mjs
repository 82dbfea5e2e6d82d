// Jest global setup (plain ESM: Jest loads it outside the test transform). It names this run;
// nothing starts here: the first suite that needs the Docker engine starts it under this name
// (e2e/support/docker-engine.ts), so runs without such a suite pay nothing.
export default function nameTheRun() {
  process.env.SLIPWAY_DOCKER_RUN ??= `jest-${process.pid}-${Date.now()}`;
}
