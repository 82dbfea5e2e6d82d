import { defineEvent } from '../eventstore/define-event.js';

/** Where a drain sends: syslog (RFC 5424 over TLS, RFC 5425) or OTLP logs over HTTP. */
export type DrainKind = 'syslog' | 'otlp';

/** What a drain carries: the audit trail, deployment output, or both. */
export type DrainSource = 'audit' | 'deployment-logs';

/** A drain as configured, whole. The extra headers (credentials, for OTLP) are sealed. */
export type DrainSettings = {
  drainId: string;
  displayName: string;
  kind: DrainKind;
  /** syslog: `tls://host:port`; otlp: an https URL (http only on a loopback address). */
  endpoint: string;
  /** PEM certificates trusted for the endpoint instead of the system's roots; null: the system's. */
  caCertificate: string | null;
  /** Sealed JSON object of header name → value sent with every OTLP request; null: none. */
  sealedHeaders: string | null;
  /** The names of those headers, lower-case, for reads (never their values). */
  headerNames: string[];
  sources: DrainSource[];
  enabled: boolean;
  /**
   * The global position after which the drain ships: the head when it was first configured
   * (`startAt: "now"`), or 0 to ship the whole history (`startAt: "beginning"`).
   */
  fromPosition: number;
};

/** Stream `drain-<drainId>`: the drain as configured (whole, every time). */
export const DrainConfigured = defineEvent<DrainSettings>('DrainConfigured', 1);

export const DrainRemoved = defineEvent<{ drainId: string }>('DrainRemoved', 1);

export const drainStream = (drainId: string) => `drain-${drainId}`;
