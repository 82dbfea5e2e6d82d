import {
  execFile,
  execFileSync,
  spawn,
  type ChildProcess,
  type SpawnOptions,
} from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Sets the host name, then becomes the command (`exec`: the pid stays the command's). */
const NAMED = 'hostname "$0" && exec "$@"';
const ip = (...args: string[]) => run('ip', args);

/** One host of a test network: a network namespace with one interface on the network's switch. */
export interface Host {
  name: string;
  /** Its address on the network. */
  address: string;
  /**
   * A process started inside the host, under the host's name (`ip netns exec`, `unshare --uts`
   * and `sh` each become the next program, so the pid is the process's own).
   */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** The program line that runs `command` inside the host, as `user` when given. */
  wrap(command: string, args: string[], user: string | null): [string, string[]];
  /** Cuts its cable at the switch: packets to and from it are lost, nothing is refused. */
  unplug(): Promise<void>;
  plug(): Promise<void>;
}

/**
 * Whether this machine can make test networks: root, and iproute2's `ip netns`. The fault suites
 * need both; the CI script runs as root and installs iproute2.
 */
export function networkNamespacesAvailable(): string | null {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'ip netns is missing: apt-get install -y iproute2';
  }
}

/**
 * Hosts in network namespaces of their own, on one switch (a bridge in a namespace of its own),
 * with addresses in a random 10.x.y.0/24. The test process itself joins as the host `.1`, so it
 * can reach every host and every host can reach it. Names are unique per network, so suites may
 * run side by side.
 */
export class TestNetwork {
  private readonly hosts: string[] = [];
  private readonly links: string[] = [];
  private count = 0;

  private constructor(
    private readonly id: string,
    readonly prefix: string,
  ) {}

  /** The switch's namespace. */
  private get switchName(): string {
    return `sw${this.id}-switch`;
  }

  /** The test process's own address on the network. */
  get ownAddress(): string {
    return `${this.prefix}.1`;
  }

  static async create(): Promise<TestNetwork> {
    const net = new TestNetwork(
      randomBytes(3).toString('hex'),
      `10.${randomInt(200, 250)}.${randomInt(1, 250)}`,
    );
    await ip('netns', 'add', net.switchName);
    net.hosts.push(net.switchName);
    await ip('-n', net.switchName, 'link', 'add', 'br0', 'type', 'bridge');
    await ip('-n', net.switchName, 'link', 'set', 'br0', 'up');
    // The test process's cable: one end here, the other on the switch.
    const mine = `sw${net.id}o`;
    await ip('link', 'add', mine, 'type', 'veth', 'peer', 'name', `sw${net.id}ob`);
    net.links.push(mine);
    await net.toSwitch(`sw${net.id}ob`);
    await ip('addr', 'add', `${net.ownAddress}/24`, 'dev', mine);
    await ip('link', 'set', mine, 'up');
    return net;
  }

  async addHost(name: string): Promise<Host> {
    const index = ++this.count;
    const ns = `sw${this.id}-${name}`;
    const address = `${this.prefix}.${10 + index}`;
    const inside = `sw${this.id}h${index}`;
    const port = `sw${this.id}p${index}`;
    await ip('netns', 'add', ns);
    this.hosts.push(ns);
    await ip('link', 'add', inside, 'type', 'veth', 'peer', 'name', port);
    await ip('link', 'set', inside, 'netns', ns);
    await ip('-n', ns, 'link', 'set', inside, 'name', 'eth0');
    await ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    await ip('-n', ns, 'link', 'set', 'eth0', 'up');
    await ip('-n', ns, 'link', 'set', 'lo', 'up');
    await this.toSwitch(port);
    const switchName = this.switchName;
    const as = (user: string | null) =>
      user ? ['setpriv', `--reuid=${user}`, `--regid=${user}`, '--init-groups'] : [];
    return {
      name,
      address,
      wrap: (command, args, user) => ['ip', ['netns', 'exec', ns, ...as(user), command, ...args]],
      // A host name of its own too (a UTS namespace), as another machine has: whatever tells
      // processes apart by host and pid (the runners' heartbeats) must not see one machine.
      spawn: (command, args, options = {}) =>
        spawn(
          'ip',
          ['netns', 'exec', ns, 'unshare', '--uts', 'sh', '-c', NAMED, name, command, ...args],
          options,
        ),
      unplug: async () => {
        await ip('-n', switchName, 'link', 'set', port, 'down');
      },
      plug: async () => {
        await ip('-n', switchName, 'link', 'set', port, 'up');
      },
    };
  }

  /** Removes every namespace and link it made (their processes must be gone first). */
  async destroy(): Promise<void> {
    for (const link of this.links.splice(0)) await ip('link', 'del', link).catch(() => undefined);
    for (const ns of this.hosts.splice(0).reverse())
      await ip('netns', 'del', ns).catch(() => undefined);
  }

  private async toSwitch(port: string): Promise<void> {
    await ip('link', 'set', port, 'netns', this.switchName);
    await ip('-n', this.switchName, 'link', 'set', port, 'master', 'br0');
    await ip('-n', this.switchName, 'link', 'set', port, 'up');
  }
}
