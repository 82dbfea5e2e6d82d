import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { LogAttributes } from '@opentelemetry/api-logs';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { auditJson, escapedText, refused, type DrainRecord } from './drain-record.js';

const gzipped = promisify(gzip);

export interface OtlpShipment {
  url: URL;
  /** The address policy's answer for the URL's host: the only address connected to. */
  address: string;
  caCertificate: string | null;
  headers: Record<string, string>;
  records: DrainRecord[];
  hostname: string;
  timeoutMs: number;
}

/** OpenTelemetry severity numbers (the logs data model). */
const SEVERITY = { info: { number: 9, text: 'INFO' }, warn: { number: 13, text: 'WARN' } };
/** One object each: the serializer groups records by the identity of their scope. */
const SCOPES = {
  audit: { name: 'slipway.audit' },
  'deployment-logs': { name: 'slipway.deployment-output' },
} as const;

type Library = {
  serialize: (records: ReadableLogRecord[]) => Uint8Array | undefined;
  resource: (hostname: string) => ReadableLogRecord['resource'];
};

let library: Promise<Library> | null = null;

/**
 * OpenTelemetry's own encoder, loaded at the first OTLP shipment: a server with no OTLP drain
 * never holds it in memory.
 */
function otel(): Promise<Library> {
  library ??= Promise.all([
    import('@opentelemetry/otlp-transformer'),
    import('@opentelemetry/resources'),
  ]).then(([transformer, resources]) => {
    const byHost = new Map<string, ReadableLogRecord['resource']>();
    return {
      serialize: (records) => transformer.ProtobufLogsSerializer.serializeRequest(records),
      resource: (hostname) => {
        let resource = byHost.get(hostname);
        if (!resource) {
          resource = resources.resourceFromAttributes({
            'service.name': 'slipway',
            'host.name': hostname,
          });
          byHost.set(hostname, resource);
        }
        return resource;
      },
    };
  });
  return library;
}

function hrTime(iso: string): [number, number] {
  const ms = Date.parse(iso);
  return [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
}

/** Attributes without the empty ones (OTLP has no null). */
function attributes(values: Record<string, string | number | null>): LogAttributes {
  const kept: LogAttributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== null) kept[key] = value;
  return kept;
}

/**
 * A record in the OpenTelemetry logs data model. Audit entries: the entry as JSON in the body,
 * its main fields as attributes, refusals at WARN. Output lines: the text (control characters
 * escaped) with the deployment, step and `log.iostream`.
 */
export function logRecordOf(
  record: DrainRecord,
  resource: ReadableLogRecord['resource'],
  observedAt: [number, number],
): ReadableLogRecord {
  const common = {
    hrTime: hrTime(record.time),
    hrTimeObserved: observedAt,
    resource,
    droppedAttributesCount: 0,
  };
  if (record.source === 'audit') {
    const { entry } = record;
    const severity = refused(entry) ? SEVERITY.warn : SEVERITY.info;
    return {
      ...common,
      instrumentationScope: SCOPES.audit,
      eventName: 'slipway.audit',
      severityNumber: severity.number,
      severityText: severity.text,
      body: auditJson(entry),
      attributes: attributes({
        'slipway.audit.position': entry.position,
        'slipway.audit.action': entry.action,
        'slipway.audit.outcome': entry.outcome,
        'slipway.audit.stream': entry.stream,
        'slipway.audit.resource': entry.resource,
        'slipway.audit.code': entry.code,
        'slipway.actor.id': entry.actor.id,
        'slipway.actor.kind': entry.actor.kind,
        'slipway.auth.method': entry.authMethod,
        'slipway.token.id': entry.token?.id ?? null,
        'client.address': entry.clientAddress,
        'slipway.request.id': entry.requestId ? escapedText(entry.requestId) : null,
      }),
    };
  }
  const { output } = record;
  return {
    ...common,
    instrumentationScope: SCOPES['deployment-logs'],
    severityNumber: SEVERITY.info.number,
    severityText: SEVERITY.info.text,
    body: escapedText(output.text),
    attributes: attributes({
      'slipway.deployment.id': output.deploymentId,
      'slipway.service.id': output.serviceId,
      'slipway.job.id': output.jobId,
      'slipway.job.run.id': output.runId,
      'slipway.deployment.step': output.step,
      'slipway.deployment.line': output.line,
      'log.iostream': output.stream,
    }),
  };
}

/**
 * Sends a batch as one OTLP/HTTP logs request (binary protobuf, gzip), connecting only to
 * `address`, following no redirect. Any 2xx is the receiver's acknowledgement; anything else,
 * or no answer in time, is a failure the shipper retries.
 */
export async function shipOtlp(shipment: OtlpShipment): Promise<void> {
  const { url, address, caCertificate, headers, records, hostname, timeoutMs } = shipment;
  const lib = await otel();
  const resource = lib.resource(hostname);
  const now = hrTime(new Date().toISOString());
  const bytes = lib.serialize(records.map((r) => logRecordOf(r, resource, now)));
  if (!bytes) throw new Error('the OTLP encoder produced nothing');
  const body = await gzipped(bytes);
  const family = isIP(address) === 6 ? 6 : 4;
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const statusCode = await new Promise<number>((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/x-protobuf',
        'content-encoding': 'gzip',
        'content-length': String(body.length),
      },
      lookup,
      ca: caCertificate ?? undefined,
      minVersion: 'TLSv1.2',
      signal: AbortSignal.timeout(timeoutMs),
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', (error) =>
      reject(error.name === 'AbortError' ? new Error(`timed out after ${timeoutMs} ms`) : error),
    );
    req.end(body);
  });
  if (statusCode < 200 || statusCode >= 300) {
    throw new Error(`the OTLP receiver answered ${statusCode}`);
  }
}
