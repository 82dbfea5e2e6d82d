import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import {
  startOtlpReceiver,
  type ReceivedLogRecord,
  type TestOtlpReceiver,
} from './support/otlp-receiver.js';

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

const resource = resourceFromAttributes({
  'service.name': 'slipway',
  'service.instance.id': 'node-1',
  'host.cpu.count': 2,
});
// The serializers group records by the identity of `resource` and `instrumentationScope`.
const scope = { name: 'slipway.deployments', version: '0.1.0' };

/** ReadableLogRecord objects written out, with a string body and attributes of every type. */
function handMadeRecords(): ReadableLogRecord[] {
  return [
    {
      hrTime: [1_767_225_600, 123_456_789],
      hrTimeObserved: [1_767_225_601, 5],
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: 'deployment dpl_1 is slow',
      eventName: 'slipway.deployment.slow',
      resource,
      instrumentationScope: scope,
      attributes: {
        'deployment.id': 'dpl_1',
        'attempt.count': 3,
        'offset.negative': -7,
        zero: 0,
        'big.int': 2 ** 60,
        ratio: 0.25,
        'is.retry': true,
        'is.cancelled': false,
        tags: ['web', 2, true],
        details: { step: 'pull', 'duration.ms': 1500, nested: { ok: false } },
        digest: new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
        empty: '',
      },
      droppedAttributesCount: 0,
      spanContext: {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: 1,
      },
    },
    {
      // The least a record needs: times, resource, scope, attributes, droppedAttributesCount.
      hrTime: [1_767_225_602, 0],
      hrTimeObserved: [1_767_225_602, 0],
      resource,
      instrumentationScope: scope,
      attributes: {},
      droppedAttributesCount: 0,
    },
  ];
}

const expectedHandMade: ReceivedLogRecord[] = [
  {
    resource: { 'service.name': 'slipway', 'service.instance.id': 'node-1', 'host.cpu.count': 2 },
    scope: { name: 'slipway.deployments', version: '0.1.0' },
    timeUnixNano: '1767225600123456789',
    observedTimeUnixNano: '1767225601000000005',
    severityNumber: 13,
    severityText: 'WARN',
    body: 'deployment dpl_1 is slow',
    eventName: 'slipway.deployment.slow',
    attributes: {
      'deployment.id': 'dpl_1',
      'attempt.count': 3,
      'offset.negative': -7,
      zero: 0,
      'big.int': 2n ** 60n,
      ratio: 0.25,
      'is.retry': true,
      'is.cancelled': false,
      tags: ['web', 2, true],
      details: { step: 'pull', 'duration.ms': 1500, nested: { ok: false } },
      digest: new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
      empty: '',
    },
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    flags: 1,
  },
  {
    resource: { 'service.name': 'slipway', 'service.instance.id': 'node-1', 'host.cpu.count': 2 },
    scope: { name: 'slipway.deployments', version: '0.1.0' },
    timeUnixNano: '1767225602000000000',
    observedTimeUnixNano: '1767225602000000000',
    severityNumber: 0,
    severityText: '',
    body: undefined,
    attributes: {},
  },
];

function serialize(kind: 'protobuf' | 'json', records: ReadableLogRecord[]): Uint8Array {
  const serializer = kind === 'protobuf' ? ProtobufLogsSerializer : JsonLogsSerializer;
  const body = serializer.serializeRequest(records);
  if (!body) throw new Error(`${kind} serializer returned nothing`);
  return body;
}

function post(
  url: string,
  body: Uint8Array | string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<Response> {
  return fetch(url, { method, headers, body: method === 'GET' ? undefined : body });
}

describe('OTLP/HTTP logs receiver', () => {
  let receiver: TestOtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.stop();
  });

  function clear() {
    receiver.records.length = 0;
    receiver.requests.length = 0;
  }

  it('decodes ProtobufLogsSerializer output and answers an empty ExportLogsServiceResponse', async () => {
    clear();
    const res = await post(receiver.url, serialize('protobuf', handMadeRecords()), {
      'content-type': PROTOBUF,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PROTOBUF);
    const answer = new Uint8Array(await res.arrayBuffer());
    expect(answer.length).toBe(0);
    expect(ProtobufLogsSerializer.deserializeResponse(answer)).toEqual({});
    expect(receiver.records).toEqual(expectedHandMade);
    expect(receiver.requests).toMatchObject([
      { method: 'POST', path: '/v1/logs', contentType: PROTOBUF, status: 200, count: 2 },
    ]);
  });

  it('decodes JsonLogsSerializer output to the same records and answers {}', async () => {
    clear();
    const res = await post(receiver.url, serialize('json', handMadeRecords()), {
      'content-type': JSON_TYPE,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    expect(await res.text()).toBe('{}');
    expect(receiver.records).toEqual(expectedHandMade);
  });

  it('reads gzip bodies of both kinds', async () => {
    clear();
    for (const [kind, type] of [
      ['protobuf', PROTOBUF],
      ['json', `${JSON_TYPE}; charset=utf-8`],
    ] as const) {
      const res = await post(receiver.url, gzipSync(serialize(kind, handMadeRecords())), {
        'content-type': type,
        'content-encoding': 'gzip',
      });
      expect(res.status).toBe(200);
    }
    expect(receiver.records).toEqual([...expectedHandMade, ...expectedHandMade]);
  });

  it('decodes records made by the SDK LoggerProvider, grouped by scope', async () => {
    clear();
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({
      resource,
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const at = new Date('2026-01-01T00:00:00.250Z');
    provider.getLogger('slipway.runner', '2.0.0').emit({
      timestamp: at,
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: { message: 'pull failed', code: 7 },
      attributes: { 'container.name': 'web-1' },
      eventName: 'slipway.runner.pull',
    });
    provider.getLogger('slipway.edge').emit({ body: 'route added', attributes: { hosts: 2 } });
    await provider.forceFlush();
    const finished = exporter.getFinishedLogRecords();
    expect(finished).toHaveLength(2);

    for (const kind of ['protobuf', 'json'] as const) {
      clear();
      const res = await post(receiver.url, serialize(kind, finished), {
        'content-type': kind === 'protobuf' ? PROTOBUF : JSON_TYPE,
      });
      expect(res.status).toBe(200);
      const [runner, edge] = await receiver.waitFor((r) => r.length === 2, `2 ${kind} records`);
      expect(runner).toMatchObject({
        resource: { 'service.name': 'slipway' },
        scope: { name: 'slipway.runner', version: '2.0.0' },
        timeUnixNano: `${at.getTime()}000000`,
        severityNumber: SeverityNumber.ERROR,
        severityText: 'ERROR',
        body: { message: 'pull failed', code: 7 },
        attributes: { 'container.name': 'web-1' },
        eventName: 'slipway.runner.pull',
      });
      expect(BigInt(runner.observedTimeUnixNano)).toBeGreaterThan(0n);
      expect(edge.scope).toEqual({ name: 'slipway.edge' });
      expect(edge).toMatchObject({ body: 'route added', attributes: { hosts: 2 } });
      expect(edge.eventName).toBeUndefined();
      // No timestamp given: the SDK sets the time to the observed time.
      expect(edge.timeUnixNano).toBe(edge.observedTimeUnixNano);
    }
  });

  it('failNext answers the next requests with the given status and keeps nothing from them', async () => {
    clear();
    receiver.failNext(2, 503);
    const body = serialize('protobuf', handMadeRecords());
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(receiver.url, body, { 'content-type': PROTOBUF });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([503, 503, 200]);
    expect(receiver.requests.map((r) => [r.status, r.count])).toEqual([
      [503, 0],
      [503, 0],
      [200, 2],
    ]);
    expect(receiver.records).toEqual(expectedHandMade);
  });

  it('refuses wrong paths, methods, content types, encodings, oversized and garbled bodies', async () => {
    clear();
    const body = serialize('protobuf', handMadeRecords());
    const base = receiver.url.replace('/v1/logs', '');
    const cases: [string, () => Promise<Response>, number][] = [
      ['wrong path', () => post(`${base}/v1/traces`, body, { 'content-type': PROTOBUF }), 404],
      ['wrong method', () => post(receiver.url, '', {}, 'GET'), 405],
      ['text/plain', () => post(receiver.url, 'hello', { 'content-type': 'text/plain' }), 415],
      [
        'brotli',
        () => post(receiver.url, body, { 'content-type': PROTOBUF, 'content-encoding': 'br' }),
        415,
      ],
      [
        'garbled protobuf',
        () => post(receiver.url, new Uint8Array([0x0a, 0xff, 0x01]), { 'content-type': PROTOBUF }),
        400,
      ],
      [
        'garbled JSON',
        () => post(receiver.url, '{"resourceLogs":', { 'content-type': JSON_TYPE }),
        400,
      ],
      [
        'JSON of the wrong shape',
        () => post(receiver.url, '{"resourceLogs":{}}', { 'content-type': JSON_TYPE }),
        400,
      ],
      [
        'over 8 MiB',
        () => post(receiver.url, new Uint8Array(9 * 1024 * 1024), { 'content-type': PROTOBUF }),
        413,
      ],
      [
        'gzip inflating past 8 MiB',
        () =>
          post(receiver.url, gzipSync(new Uint8Array(9 * 1024 * 1024)), {
            'content-type': PROTOBUF,
            'content-encoding': 'gzip',
          }),
        413,
      ],
    ];
    for (const [what, send, status] of cases) {
      const res = await send();
      await res.arrayBuffer();
      expect([what, res.status]).toEqual([what, status]);
    }
    expect(receiver.records).toEqual([]);
    expect(receiver.requests.find((r) => r.status === 405)).toBeDefined();
    expect(receiver.requests.filter((r) => r.status === 400).map((r) => r.error)).toEqual([
      expect.stringContaining('undecodable application/x-protobuf'),
      expect.stringContaining('undecodable application/json'),
      expect.stringContaining('resourceLogs: not an array'),
    ]);
  });

  it('waitFor waits for late records and says what arrived when it gives up', async () => {
    clear();
    const body = serialize('json', handMadeRecords());
    setTimeout(() => void post(receiver.url, body, { 'content-type': JSON_TYPE }), 200);
    const records = await receiver.waitFor(
      (r) => r.some((x) => x.eventName === 'slipway.deployment.slow'),
      'the slow-deployment event',
    );
    expect(records).toHaveLength(2);
    await expect(receiver.waitFor((r) => r.length > 5, 'six records', 300)).rejects.toThrow(
      /timed out waiting for six records: 2 record\(s\) arrived: .*deployment dpl_1 is slow.*requests: .*"status":200/,
    );
  });
});

describe('OTLP/HTTP logs receiver with requireHeader', () => {
  let receiver: TestOtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver({ requireHeader: ['Authorization', 'Bearer s3cret'] });
  });
  afterAll(async () => {
    await receiver.stop();
  });

  it('answers 401 without the header or with a wrong value, 200 with it', async () => {
    const body = serialize('protobuf', handMadeRecords());
    const without = await post(receiver.url, body, { 'content-type': PROTOBUF });
    expect(without.status).toBe(401);
    const wrong = await post(receiver.url, body, {
      'content-type': PROTOBUF,
      authorization: 'Bearer nope',
    });
    expect(wrong.status).toBe(401);
    expect(receiver.records).toEqual([]);
    const right = await post(receiver.url, body, {
      'content-type': PROTOBUF,
      authorization: 'Bearer s3cret',
    });
    expect(right.status).toBe(200);
    expect(receiver.records).toEqual(expectedHandMade);
    expect(receiver.requests.map((r) => r.status)).toEqual([401, 401, 200]);
    expect(receiver.requests[2].headers.authorization).toBe('Bearer s3cret');
  });
});
