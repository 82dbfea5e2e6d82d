/**
 * Compose files shaped like the ones people run (written for these tests, one per pattern of
 * the Compose specification real stacks use), each with the variables its service sets. Every
 * one is a compose file Slipway accepts and reads as Compose does: the e2e suite
 * compose-corpus compares Slipway's reading with Compose's own.
 */
export interface CorpusFile {
  name: string;
  compose: string;
  variables: Record<string, string>;
}

export const COMPOSE_CORPUS: CorpusFile[] = [
  {
    name: 'wordpress with mysql, named volumes and a required password',
    variables: { DB_PASSWORD: 'change-me', WP_PORT: '8000' },
    compose: `services:
  db:
    image: mysql:8.4
    volumes: [db_data:/var/lib/mysql]
    restart: always
    environment:
      MYSQL_ROOT_PASSWORD: \${DB_PASSWORD:?set DB_PASSWORD}
      MYSQL_DATABASE: wordpress
  wordpress:
    image: wordpress:6.6-apache
    depends_on: [db]
    ports: ["\${WP_PORT:-8080}:80"]
    environment:
      - WORDPRESS_DB_HOST=db
      - WORDPRESS_DB_PASSWORD=\${DB_PASSWORD}
volumes:
  db_data: {}
`,
  },
  {
    name: 'merge keys supply the image and the restart policy',
    variables: {},
    compose: `x-app: &app
  image: ghcr.io/acme/app:2.1.0
  restart: unless-stopped
  environment: {LOG_LEVEL: info}
services:
  web:
    <<: *app
    command: [serve, --port, "3000"]
  worker:
    <<: *app
    command: [work]
`,
  },
  {
    name: 'a list of merge keys, the later one overridden by the first',
    variables: {},
    compose: `x-base: &base {image: "redis:7.2-alpine", restart: always}
x-limits: &limits {restart: "no", mem_limit: 256m, cpus: 0.5}
services:
  cache:
    <<: [*base, *limits]
`,
  },
  {
    name: 'a reused service anchor',
    variables: {},
    compose: `services:
  api: &api
    image: ghcr.io/acme/api:1.4.2
    environment: {ROLE: api}
  api-replica: *api
`,
  },
  {
    name: 'same-file extends with the merge rules',
    variables: {},
    compose: `services:
  base:
    image: python:3.12-slim
    environment: {PYTHONUNBUFFERED: "1", ROLE: base}
    volumes: ["./src:/app/src", "./conf:/app/conf"]
    labels: [team=data]
    command: [python, -m, app]
  scheduler:
    extends: base
    environment: [ROLE=scheduler]
    volumes: ["./conf.prod:/app/conf"]
    command: [python, -m, app.scheduler]
  reporter:
    extends: {service: scheduler}
    labels: [schedule=nightly]
`,
  },
  {
    name: 'defaults in the image tag and the published port',
    variables: { TAG: '1.27.1' },
    compose: `services:
  web:
    image: "nginx:\${TAG:-1.0}"
    ports:
      - "\${PORT:-8080}:80"
      - "\${ADMIN_PORT-9090}:9090"
`,
  },
  {
    name: 'IPv6, UDP, SCTP and ranges in ports',
    variables: {},
    compose: `services:
  dns:
    image: coredns/coredns:1.11.3
    ports:
      - "[::1]:8053:53/udp"
      - "127.0.0.1:8054:53"
      - "8080:80/sctp"
      - "9000-9002:9000-9002"
      - "3000"
      - target: 8443
        published: "8443"
        protocol: tcp
        mode: host
`,
  },
  {
    name: '!reset and !override over an extended service',
    variables: {},
    compose: `services:
  app:
    image: ghcr.io/acme/app:3.0.0
    ports: ["8080:80"]
    environment: {DEBUG: "1", MODE: dev}
    healthcheck:
      test: [CMD, curl, -f, http://localhost/health]
      interval: 10s
  app-prod:
    extends: app
    ports: !override ["80:80"]
    environment:
      DEBUG: !reset null
      MODE: prod
  app-quiet:
    extends: app
    ports: !reset []
    healthcheck: !reset {}
`,
  },
  {
    name: 'escaped dollars stay literal',
    variables: { HOME_DIR: '/srv/app' },
    compose: `services:
  shell:
    image: alpine:3.20
    command: [sh, -c, "echo $$HOME and $$PATH"]
    environment:
      GREETING: "costs $$5"
      APP_HOME: \${HOME_DIR}
`,
  },
  {
    name: 'alternatives and unset variables',
    variables: { SENTRY_DSN: 'https://key@sentry.example/1', EMPTY: '' },
    compose: `services:
  api:
    image: ghcr.io/acme/api:2.0.0
    environment:
      SENTRY_ENABLED: \${SENTRY_DSN:+true}
      FEATURE_X: \${EMPTY:-off}
      FEATURE_Y: \${EMPTY-off}
      EXTRA: \${NOT_SET}
`,
  },
  {
    name: 'long-syntax volumes, tmpfs and a read-only root',
    variables: {},
    compose: `services:
  app:
    image: ghcr.io/acme/app:1.0.0
    read_only: true
    tmpfs: [/tmp]
    volumes:
      - type: volume
        source: data
        target: /var/lib/app
      - type: volume
        source: cache
        target: /cache
        volume: {nocopy: true}
volumes:
  data: {}
  cache: {}
`,
  },
  {
    name: 'gitea with postgres and a healthcheck dependency',
    variables: { POSTGRES_PASSWORD: 'secret' },
    compose: `services:
  gitea:
    image: gitea/gitea:1.22.3
    environment:
      - USER_UID=1000
      - GITEA__database__DB_TYPE=postgres
      - GITEA__database__HOST=db:5432
      - GITEA__database__PASSWD=\${POSTGRES_PASSWORD}
    volumes: [gitea:/data]
    ports: ["3000:3000", "222:22"]
    depends_on:
      db:
        condition: service_healthy
  db:
    image: postgres:16.4-alpine
    environment:
      POSTGRES_USER: gitea
      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD}
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U gitea"]
      interval: 5s
      retries: 10
    volumes: [pg:/var/lib/postgresql/data]
volumes:
  gitea: {}
  pg: {}
`,
  },
  {
    name: 'a service that builds its image (build: without image:)',
    variables: {},
    compose: `services:
  app:
    build: .
    ports: ["5000:5000"]
  redis:
    image: redis:7.2-alpine
`,
  },
  {
    name: 'a build with a context, a Dockerfile, args and a target',
    variables: { PY: '3.12' },
    compose: `services:
  web:
    build:
      context: ./web
      dockerfile: Dockerfile.prod
      target: runtime
      args:
        PYTHON_VERSION: \${PY}
    command: [gunicorn, app:app]
  worker:
    build: {context: ./web, target: runtime}
    command: [celery, -A, app, worker]
  broker:
    image: rabbitmq:3.13-management
`,
  },
  {
    name: 'networks, aliases and an internal network',
    variables: {},
    compose: `services:
  proxy:
    image: caddy:2.8.4
    networks: [front, back]
  app:
    image: ghcr.io/acme/app:5.1.0
    networks:
      back:
        aliases: [application]
networks:
  front: {}
  back: {internal: true}
`,
  },
  {
    name: 'deploy resources, replicas and restart policy',
    variables: { REPLICAS: '3' },
    compose: `services:
  api:
    image: ghcr.io/acme/api:1.9.0
    deploy:
      replicas: \${REPLICAS:-1}
      resources:
        limits: {cpus: "0.50", memory: 512M}
        reservations: {memory: 128M}
      restart_policy: {condition: on-failure, max_attempts: 3}
`,
  },
  {
    name: 'profiles, labels as a map and a stop grace period',
    variables: {},
    compose: `services:
  app:
    image: ghcr.io/acme/app:1.2.3
    labels:
      com.example.team: payments
      com.example.tier: "1"
    stop_grace_period: 30s
  debug:
    image: busybox:1.36
    profiles: [debug]
    command: [sleep, infinity]
`,
  },
  {
    name: 'secrets and configs from files beside the compose file',
    variables: {},
    compose: `services:
  app:
    image: ghcr.io/acme/app:4.0.0
    secrets: [db_password]
    configs:
      - source: app_config
        target: /etc/app/config.yaml
secrets:
  db_password: {file: ./db_password.txt}
configs:
  app_config: {file: ./config.yaml}
`,
  },
  {
    name: 'a digest-pinned image and a registry with a port',
    variables: {},
    compose: `services:
  a:
    image: registry.example.com:5000/team/app:2024.11
  b:
    image: ghcr.io/acme/pinned@sha256:${'c'.repeat(64)}
`,
  },
  {
    name: 'nextcloud with a variable in a volume path and in a label',
    variables: { DATA_DIR: './nextcloud-data', DOMAIN: 'cloud.example.com' },
    compose: `services:
  app:
    image: nextcloud:29.0.7-apache
    volumes: ["\${DATA_DIR:-./data}:/var/www/html"]
    labels: ["com.example.domain=\${DOMAIN}"]
    environment:
      NEXTCLOUD_TRUSTED_DOMAINS: \${DOMAIN}
`,
  },
  {
    name: 'extension fields at the service level and an x- top level',
    variables: {},
    compose: `x-common-env: &env
  TZ: UTC
  LANG: C.UTF-8
services:
  app:
    image: ghcr.io/acme/app:1.0.1
    x-slipway-note: kept as Compose keeps it
    environment:
      <<: *env
      ROLE: app
`,
  },
  {
    name: 'nested defaults',
    variables: { FALLBACK: '6.2' },
    compose: `services:
  cache:
    image: "redis:\${REDIS_TAG:-\${FALLBACK}}-alpine"
`,
  },
  {
    name: 'init, user, working_dir, entrypoint and sysctls',
    variables: { UID: '1000' },
    compose: `services:
  app:
    image: node:20.18-bookworm-slim
    init: true
    user: "\${UID}:\${UID}"
    working_dir: /srv/app
    entrypoint: [node]
    command: [server.js]
    sysctls: {net.core.somaxconn: 1024}
    ulimits:
      nofile: {soft: 20000, hard: 40000}
`,
  },
];

/** Files Slipway refuses, each with what the refusal says (a part of its message). */
export const REFUSED_CORPUS: { name: string; compose: string; says: string }[] = [
  {
    name: 'an untagged image',
    compose: 'services:\n  db:\n    image: postgres\n',
    says: 'pin it: postgres:<version> or postgres@sha256:<digest>',
  },
  {
    name: 'a required variable that is not set',
    compose: 'services:\n  db:\n    image: "postgres:${PG_TAG:?set PG_TAG}"\n',
    says: 'requires the variable PG_TAG',
  },
  {
    name: 'a key the specification does not have',
    compose: 'services:\n  web:\n    image: nginx:1.27\n    restart_policy: always\n',
    says: 'is not a Compose key',
  },
  {
    name: 'a value of the wrong type',
    compose: 'services:\n  web:\n    image: nginx:1.27\n    healthcheck: {retries: [1]}\n',
    says: 'must be',
  },
  {
    name: 'extends that loops',
    compose: 'services:\n  a: {image: "a:1", extends: b}\n  b: {image: "b:1", extends: a}\n',
    says: 'loops',
  },
];
