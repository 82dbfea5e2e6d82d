import { describe, expect, it } from '@jest/globals';
import { containerReadings, cpuPercent, serverReading, sizeBytes } from './metric-readings.js';

const stat1 = 'cpu  10132153 290696 3084719 46828483 16683 0 25195 0 175628 0';
const stat2 = 'cpu  10132253 290696 3084769 46828833 16683 0 25195 0 175628 0';

describe('cpuPercent', () => {
  it('Given two /proc/stat cpu lines, Then the busy share between them', () => {
    // 500 jiffies spent, 350 of them idle.
    expect(cpuPercent(stat1, stat2)).toBe(30);
  });

  it('Given a missing, garbled or unchanged line, Then null', () => {
    expect(cpuPercent(stat1, undefined)).toBeNull();
    expect(cpuPercent(stat1, 'cpu  1 2 x 4')).toBeNull();
    expect(cpuPercent(stat1, stat1)).toBeNull();
  });
});

describe('sizeBytes', () => {
  it('Given sizes as Docker prints them, Then bytes', () => {
    expect(sizeBytes('0B')).toBe(0);
    expect(sizeBytes('1.5GB')).toBe(1_500_000_000);
    expect(sizeBytes('12.3MiB')).toBe(Math.round(12.3 * 1024 ** 2));
    expect(sizeBytes('100kB')).toBe(100_000);
    expect(sizeBytes(' 2GiB ')).toBe(2 * 1024 ** 3);
  });

  it('Given something else, Then null', () => {
    for (const text of ['garbage', '', '12', '1.5 PB', '5iB', '0B (0%)']) {
      expect(sizeBytes(text)).toBeNull();
    }
  });
});

const dockerDf = [
  '{"Active":"1","Reclaimable":"0B (0%)","Size":"10.5MB","TotalCount":"2","Type":"Images"}',
  '{"Active":"1","Reclaimable":"0B (0%)","Size":"2.1kB","TotalCount":"1","Type":"Containers"}',
  '{"Active":"1","Reclaimable":"0B (0%)","Size":"1.5GB","TotalCount":"1","Type":"Local Volumes"}',
  '{"Active":"0","Reclaimable":"0B","Size":"0B","TotalCount":"0","Type":"Build Cache"}',
];
const script = (docker: string[]) => [
  '==stat',
  stat1,
  stat2,
  '==mem',
  'MemTotal:        2014584 kB',
  'MemAvailable:    1007292 kB',
  '==df',
  'Filesystem     1024-blocks     Used Available Capacity Mounted on',
  '/dev/vda1         41152736 10000000  30000000      25% /',
  '==docker',
  ...docker,
];

describe('serverReading', () => {
  it("Given the server script's output, Then every metric is read", () => {
    expect(serverReading(script(dockerDf))).toEqual({
      cpuPercent: 30,
      memoryPercent: 50,
      memoryUsedBytes: 1007292 * 1024,
      memoryTotalBytes: 2014584 * 1024,
      diskPercent: 25,
      diskUsedBytes: 10_000_000 * 1024,
      dockerDiskBytes: 10_500_000 + 2_100 + 1_500_000_000,
    });
  });

  it('Given no docker output, Then only the docker disk is unknown', () => {
    const reading = serverReading(script([]));
    expect(reading.dockerDiskBytes).toBeNull();
    expect(reading.diskPercent).toBe(25);
  });

  it('Given a docker size it cannot read, Then the docker disk is unknown', () => {
    const odd = '{"Size":"lots","Type":"Images"}';
    expect(serverReading(script([...dockerDf, odd])).dockerDiskBytes).toBeNull();
  });

  it('Given nothing, Then nothing is known', () => {
    expect(serverReading([])).toEqual({
      cpuPercent: null,
      memoryPercent: null,
      memoryUsedBytes: null,
      memoryTotalBytes: null,
      diskPercent: null,
      diskUsedBytes: null,
      dockerDiskBytes: null,
    });
  });
});

const inspected = (
  name: string,
  service: string,
  state: Record<string, unknown>,
  restarts = 0,
) => ({
  Id: `id-${name}`,
  Name: `/${name}`,
  RestartCount: restarts,
  Config: {
    Image: 'nginx:1.27',
    Labels: {
      'com.docker.compose.project': 'proj',
      'com.docker.compose.service': service,
      'com.docker.compose.container-number': '1',
    },
  },
  State: { Running: state.Status === 'running', ExitCode: 0, ...state },
});
const statsRow = (name: string, cpu: string, mem: string, usage: string) => ({
  BlockIO: '0B / 0B',
  CPUPerc: cpu,
  Container: `id-${name}`,
  ID: `id-${name}`,
  MemPerc: mem,
  MemUsage: usage,
  Name: name,
  NetIO: '1.2kB / 0B',
  PIDs: '5',
});

describe('containerReadings', () => {
  it('Given inspected containers and stats of the running ones, Then they are joined by name', () => {
    const web = inspected(
      'proj-web-1',
      'web',
      {
        Status: 'running',
        Health: { Status: 'healthy', FailingStreak: 0, Log: [] },
      },
      2,
    );
    const worker = inspected('proj-worker-1', 'worker', { Status: 'exited', ExitCode: 1 });
    expect(
      containerReadings(
        [web, worker],
        [statsRow('proj-web-1', '1.50%', '0.40%', '12.5MiB / 1.9GiB')],
      ),
    ).toEqual([
      {
        name: 'proj-web-1',
        project: 'proj',
        composeService: 'web',
        state: 'running',
        health: 'healthy',
        restarts: 2,
        cpuPercent: 1.5,
        memoryPercent: 0.4,
        memoryBytes: 12.5 * 1024 ** 2,
      },
      {
        name: 'proj-worker-1',
        project: 'proj',
        composeService: 'worker',
        state: 'exited',
        health: null,
        restarts: 0,
        cpuPercent: null,
        memoryPercent: null,
        memoryBytes: null,
      },
    ]);
  });

  it('Given stats it cannot read, Then those are unknown', () => {
    const web = inspected('proj-web-1', 'web', {
      Status: 'running',
      Health: { Status: 'starting' },
    });
    const [reading] = containerReadings([web], [statsRow('proj-web-1', '--', '--', '-- / --')]);
    expect(reading).toMatchObject({
      health: 'starting',
      cpuPercent: null,
      memoryPercent: null,
      memoryBytes: null,
    });
  });

  it('Given an inspected object without labels or state, Then empty strings and no restarts', () => {
    expect(containerReadings([{ Name: '/loose' }], [])).toEqual([
      {
        name: 'loose',
        project: '',
        composeService: '',
        state: '',
        health: null,
        restarts: 0,
        cpuPercent: null,
        memoryPercent: null,
        memoryBytes: null,
      },
    ]);
  });
});
