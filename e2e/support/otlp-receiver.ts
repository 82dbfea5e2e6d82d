/**
 * A real OTLP/HTTP logs receiver on loopback for the e2e tests: it takes what the product exports
 * (POST /v1/logs, binary protobuf or OTLP JSON, plain or gzip) and keeps the log records.
 *
 * Where the definitions come from: it decodes independently of the encoder the product uses
 * (@opentelemetry/otlp-transformer's hand-written protobuf writer and its JSON mapping), so a
 * mistake there shows up here. The protobuf messages are the official opentelemetry-proto `.proto`
 * files, loaded at run time with protobufjs. No @opentelemetry package ships them; the npm package
 * `@elastic/mockotlpserver` (devDependency, Apache-2.0, a mock OTLP server) does, under
 * `opentelemetry/proto/`: its logs_service.proto, logs.proto, common.proto and resource.proto are
 * byte for byte those of opentelemetry-proto tag v1.4.0. That tag predates `LogRecord.event_name`
 * (field 12, string: added in v1.5.0, unchanged since), so that one field is added to the loaded
 * type below. The OTLP JSON body is read with JSON.parse and mapped by hand (hex trace/span ids,
 * int64 as strings or numbers, enums as numbers or names, lowerCamelCase keys).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import protobuf from 'protobufjs';

export interface ReceivedLogRecord {
  /** Resource attributes, as JS values (see `body`). */
  resource: Record<string, unknown>;
  scope: { name: string; version?: string };
  /** Nanoseconds since the epoch, in decimal ('0' when absent). */
  timeUnixNano: string;
  observedTimeUnixNano: string;
  /** 0 when absent (SEVERITY_NUMBER_UNSPECIFIED). */
  severityNumber: number;
  /** '' when absent. */
  severityText: string;
  /**
   * AnyValue as a JS value: string, boolean, number (int64 outside the safe range: bigint), array,
   * object (kvlist), Uint8Array (bytes), null (an AnyValue with nothing set, inside arrays, kvlists
   * and attributes); undefined: no body, or an empty one.
   */
  body: unknown;
  attributes: Record<string, unknown>;
  /** Absent when empty. */
  eventName?: string;
  /** Lower-case hex; absent when empty. */
  traceId?: string;
  spanId?: string;
  /** Absent when 0. */
  flags?: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Media type without parameters, lower case ('' when none). */
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  /** The status this receiver answered. */
  status: number;
  /** Log records kept from this request (0 unless it was answered 200). */
  count: number;
  /** Why it was refused, for 400 and 413. */
  error?: string;
}

export interface TestOtlpReceiver {
  /** http://127.0.0.1:PORT/v1/logs */
  url: string;
  /** Every log record kept, in arrival order (a live array). */
  records: ReceivedLogRecord[];
  /** Every request that arrived, answered or refused, in arrival order. */
  requests: ReceivedRequest[];
  /**
   * Makes the next `n` well-formed, authorised POST /v1/logs answer `status` (e.g. 503) without
   * keeping what they carry: to test retries.
   */
  failNext(n: number, status: number): void;
  /** Resolves with `records` once `predicate` holds; throws after `timeoutMs` (at most 20 s). */
  waitFor(
    predicate: (records: ReceivedLogRecord[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<ReceivedLogRecord[]>;
  stop(): Promise<void>;
}

export interface OtlpReceiverOptions {
  /** [name, value]: requests without this exact header value are answered 401. */
  requireHeader?: [string, string];
  /** Largest body accepted, compressed and decompressed (default 8 MiB); larger is answered 413. */
  maxBodyBytes?: number;
}

const PATH = '/v1/logs';
const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';
const DEFAULT_MAX_BODY = 8 * 1024 * 1024;
const WAIT_LIMIT_MS = 20_000;

interface LogsProto {
  request: protobuf.Type;
  response: protobuf.Type;
  severity: protobuf.Enum;
}

let loaded: LogsProto | undefined;

function logsProto(): LogsProto {
  if (loaded) return loaded;
  const packageJson = createRequire(import.meta.url).resolve(
    '@elastic/mockotlpserver/package.json',
  );
  const protoDir = dirname(packageJson);
  const root = new protobuf.Root();
  // The files import each other by paths relative to the proto root ("opentelemetry/proto/...").
  root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(protoDir, target));
  root.loadSync('opentelemetry/proto/collector/logs/v1/logs_service.proto');
  const logRecord = root.lookupType('opentelemetry.proto.logs.v1.LogRecord');
  const field12 = logRecord.fieldsById[12];
  if (!field12) logRecord.add(new protobuf.Field('eventName', 12, 'string'));
  else if (field12.name !== 'eventName' || field12.type !== 'string') {
    throw new Error(`LogRecord field 12 is ${field12.type} ${field12.name}, not string eventName`);
  }
  root.resolveAll();
  loaded = {
    request: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
    severity: root.lookupEnum('opentelemetry.proto.logs.v1.SeverityNumber'),
  };
  return loaded;
}

/** A request the receiver refuses, with the status to answer. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How ids and bytes are carried: protobuf bytes, or JSON hex ids and base64 bytes. */
interface Wire {
  id(value: unknown, where: string, length: number): string | undefined;
  bytes(value: unknown, where: string): Uint8Array;
}

const PROTOBUF_WIRE: Wire = {
  id(value, where, length) {
    if (value === undefined) return undefined;
    if (!(value instanceof Uint8Array)) throw new Error(`${where}: not bytes`);
    if (value.length === 0) return undefined;
    if (value.length !== length) throw new Error(`${where}: ${value.length} bytes, not ${length}`);
    return Buffer.from(value).toString('hex');
  },
  bytes(value, where) {
    if (!(value instanceof Uint8Array)) throw new Error(`${where}: not bytes`);
    return new Uint8Array(value);
  },
};

const JSON_WIRE: Wire = {
  id(value, where, length) {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || !/^[0-9a-fA-F]*$/.test(value)) {
      throw new Error(`${where}: not a hex string: ${JSON.stringify(value)}`);
    }
    if (value.length !== length * 2) {
      throw new Error(`${where}: ${value.length} hex digits, not ${length * 2}`);
    }
    return value.toLowerCase();
  },
  bytes(value, where) {
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) {
      throw new Error(`${where}: not base64: ${JSON.stringify(value)}`);
    }
    return new Uint8Array(Buffer.from(value, 'base64'));
  },
};

function object(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
    throw new Error(`${where}: not an object`);
  }
  return value as Record<string, unknown>;
}

function array(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${where}: not an array`);
  return value;
}

function string(value: unknown, where: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new Error(`${where}: not a string`);
  return value;
}

/** An int64/uint64/fixed64 as a bigint: a decimal string (protobufjs, OTLP JSON) or a number. */
function int64(value: unknown, where: string): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new Error(`${where}: not a 64-bit integer: ${JSON.stringify(value)}`);
}

function uint32(value: unknown, where: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff) {
    return value;
  }
  throw new Error(`${where}: not a uint32: ${JSON.stringify(value)}`);
}

function double(value: unknown, where: string): number {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return NaN;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  throw new Error(`${where}: not a double: ${JSON.stringify(value)}`);
}

function anyValue(value: unknown, wire: Wire, where: string): unknown {
  const v = object(value, where);
  if (v.stringValue !== undefined) {
    if (typeof v.stringValue !== 'string') throw new Error(`${where}.stringValue: not a string`);
    return v.stringValue;
  }
  if (v.boolValue !== undefined) {
    if (typeof v.boolValue !== 'boolean') throw new Error(`${where}.boolValue: not a boolean`);
    return v.boolValue;
  }
  if (v.intValue !== undefined) {
    const n = int64(v.intValue, `${where}.intValue`);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(n)
      : n;
  }
  if (v.doubleValue !== undefined) return double(v.doubleValue, `${where}.doubleValue`);
  if (v.arrayValue !== undefined) {
    const values = array(object(v.arrayValue, `${where}.arrayValue`).values, where);
    return values.map((item, i) => anyValue(item, wire, `${where}.arrayValue[${i}]`));
  }
  if (v.kvlistValue !== undefined) {
    return keyValues(object(v.kvlistValue, `${where}.kvlistValue`).values, wire, where);
  }
  if (v.bytesValue !== undefined) return wire.bytes(v.bytesValue, `${where}.bytesValue`);
  return null;
}

function keyValues(list: unknown, wire: Wire, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  array(list, where).forEach((item, i) => {
    const kv = object(item, `${where}[${i}]`);
    const key = string(kv.key, `${where}[${i}].key`);
    out[key] = anyValue(kv.value, wire, `${where}[${key}]`);
  });
  return out;
}

function severityNumber(value: unknown, where: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  const byName = typeof value === 'string' ? logsProto().severity.values[value] : undefined;
  if (byName === undefined) throw new Error(`${where}: not a SeverityNumber: ${String(value)}`);
  return byName;
}

/**
 * An ExportLogsServiceRequest as a plain object with lowerCamelCase keys (protobufjs `toObject`
 * with string longs, or parsed OTLP JSON) → the records it carries.
 */
function logRecords(request: unknown, wire: Wire): ReceivedLogRecord[] {
  const out: ReceivedLogRecord[] = [];
  array(object(request, 'request').resourceLogs, 'resourceLogs').forEach((rlValue, r) => {
    const rl = object(rlValue, `resourceLogs[${r}]`);
    const resourceWhere = `resourceLogs[${r}].resource`;
    const resource = keyValues(object(rl.resource, resourceWhere).attributes, wire, resourceWhere);
    array(rl.scopeLogs, `resourceLogs[${r}].scopeLogs`).forEach((slValue, s) => {
      const slWhere = `resourceLogs[${r}].scopeLogs[${s}]`;
      const sl = object(slValue, slWhere);
      const scopeValue = object(sl.scope, `${slWhere}.scope`);
      const version = string(scopeValue.version, `${slWhere}.scope.version`);
      const scope = {
        name: string(scopeValue.name, `${slWhere}.scope.name`),
        ...(version ? { version } : {}),
      };
      array(sl.logRecords, `${slWhere}.logRecords`).forEach((lrValue, l) => {
        const where = `${slWhere}.logRecords[${l}]`;
        const lr = object(lrValue, where);
        const record: ReceivedLogRecord = {
          resource,
          scope,
          timeUnixNano: int64(lr.timeUnixNano, `${where}.timeUnixNano`).toString(),
          observedTimeUnixNano: int64(
            lr.observedTimeUnixNano,
            `${where}.observedTimeUnixNano`,
          ).toString(),
          severityNumber: severityNumber(lr.severityNumber, `${where}.severityNumber`),
          severityText: string(lr.severityText, `${where}.severityText`),
          // An empty AnyValue body (JsonLogsSerializer's `"body": {}` for a record without one)
          // is no body, as for the Collector.
          body: anyValue(lr.body, wire, `${where}.body`) ?? undefined,
          attributes: keyValues(lr.attributes, wire, `${where}.attributes`),
        };
        const eventName = string(lr.eventName, `${where}.eventName`);
        if (eventName) record.eventName = eventName;
        const traceId = wire.id(lr.traceId, `${where}.traceId`, 16);
        if (traceId) record.traceId = traceId;
        const spanId = wire.id(lr.spanId, `${where}.spanId`, 8);
        if (spanId) record.spanId = spanId;
        const flags = uint32(lr.flags, `${where}.flags`);
        if (flags) record.flags = flags;
        out.push(record);
      });
    });
  });
  return out;
}

function decodeProtobuf(body: Buffer): ReceivedLogRecord[] {
  const { request } = logsProto();
  const message = request.decode(body);
  const plain: unknown = request.toObject(message, { longs: String, enums: Number });
  return logRecords(plain, PROTOBUF_WIRE);
}

function decodeJson(body: Buffer): ReceivedLogRecord[] {
  const plain: unknown = JSON.parse(body.toString('utf8'));
  return logRecords(plain, JSON_WIRE);
}

/** The body, or a 413 Refusal once it passes `limit` (read to its end, so the client sees 413). */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4 * limit) {
      req.destroy();
      break;
    }
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw new Refusal(413, `body over ${limit} bytes`);
  return Buffer.concat(chunks);
}

async function decompress(body: Buffer, encoding: string, limit: number): Promise<Buffer> {
  if (encoding === '' || encoding === 'identity') return body;
  try {
    return await promisify(gunzip)(body, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Refusal(413, `gzip body inflates past ${limit} bytes`);
    }
    throw new Refusal(400, `gzip: ${(err as Error).message}`);
  }
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

function reply(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: Uint8Array | string,
) {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

function summary(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint'
      ? `${v}n`
      : v instanceof Uint8Array
        ? `bytes:${Buffer.from(v).toString('hex')}`
        : v,
  );
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}

/** A real OTLP/HTTP logs receiver (node:http) on 127.0.0.1 that keeps the records it receives. */
export async function startOtlpReceiver(
  options: OtlpReceiverOptions = {},
): Promise<TestOtlpReceiver> {
  const proto = logsProto();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const required = options.requireHeader
    ? { name: options.requireHeader[0].toLowerCase(), value: options.requireHeader[1] }
    : undefined;
  const records: ReceivedLogRecord[] = [];
  const requests: ReceivedRequest[] = [];
  let failing = { left: 0, status: 503 };

  async function handle(req: IncomingMessage, res: ServerResponse, entry: ReceivedRequest) {
    if (entry.path !== PATH) throw new Refusal(404, `no ${entry.path} here: only ${PATH}`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new Refusal(405, `${req.method} ${PATH}: only POST`);
    }
    if (required && req.headers[required.name] !== required.value) {
      throw new Refusal(401, `missing or wrong ${required.name} header`);
    }
    if (entry.contentType !== PROTOBUF && entry.contentType !== JSON_TYPE) {
      throw new Refusal(415, `content-type ${entry.contentType || '(none)'}: not OTLP/HTTP`);
    }
    const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (!['', 'identity', 'gzip'].includes(encoding)) {
      throw new Refusal(415, `content-encoding ${encoding}: only gzip`);
    }
    const raw = await readBody(req, limit);
    if (failing.left > 0) {
      failing.left--;
      throw new Refusal(failing.status, `failing on purpose (failNext)`);
    }
    const body = await decompress(raw, encoding, limit);
    let received: ReceivedLogRecord[];
    try {
      received = entry.contentType === PROTOBUF ? decodeProtobuf(body) : decodeJson(body);
    } catch (err) {
      throw new Refusal(400, `undecodable ${entry.contentType}: ${(err as Error).message}`);
    }
    records.push(...received);
    entry.count = received.length;
    entry.status = 200;
    if (entry.contentType === PROTOBUF) {
      reply(res, 200, PROTOBUF, proto.response.encode(proto.response.create({})).finish());
    } else {
      reply(res, 200, JSON_TYPE, '{}');
    }
  }

  const server = createServer((req, res) => {
    const entry: ReceivedRequest = {
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://receiver').pathname,
      contentType: mediaType(req.headers['content-type']),
      headers: req.headers,
      status: 0,
      count: 0,
    };
    requests.push(entry);
    handle(req, res, entry).catch((err: unknown) => {
      const refusal =
        err instanceof Refusal ? err : new Refusal(500, `receiver failed: ${String(err)}`);
      entry.status = refusal.status;
      if (refusal.status === 400 || refusal.status === 413 || refusal.status === 500) {
        entry.error = refusal.message;
      }
      if (res.headersSent) return;
      // Drain what the client is still sending, so it reads this answer rather than a reset.
      if (!req.readableEnded) req.resume();
      reply(res, refusal.status, 'text/plain; charset=utf-8', `${refusal.message}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    records,
    requests,
    failNext(n, status) {
      failing = { left: n, status };
    },
    async waitFor(predicate, what, timeoutMs = WAIT_LIMIT_MS) {
      const deadline = Date.now() + Math.min(timeoutMs, WAIT_LIMIT_MS);
      for (;;) {
        if (predicate(records)) return records;
        if (Date.now() >= deadline) {
          const asked = requests.map((r) => ({
            method: r.method,
            path: r.path,
            contentType: r.contentType,
            status: r.status,
            count: r.count,
            ...(r.error ? { error: r.error } : {}),
          }));
          throw new Error(
            `timed out waiting for ${what}: ${records.length} record(s) arrived: ` +
              `${summary(records)}; requests: ${summary(asked)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    stop() {
      stopped ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
