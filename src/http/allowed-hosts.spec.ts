import { describe, expect, it } from '@jest/globals';
import { AllowedHosts, type Arrival } from './allowed-hosts.js';

const onLoopback: Arrival = {
  boundAddress: '127.0.0.1',
  localAddress: '127.0.0.1',
  localPort: 3000,
  protocol: 'http',
};
// In a container: bound to every address, reached on its own address.
const inContainer: Arrival = {
  boundAddress: '0.0.0.0',
  localAddress: '172.18.0.3',
  localPort: 3000,
  protocol: 'http',
};
const onLan: Arrival = { ...inContainer, boundAddress: '10.0.0.2', localAddress: '10.0.0.2' };

describe('AllowedHosts', () => {
  const hosts = new AllowedHosts(['https://slipway.example.com', 'http://slipway.lan:8080']);

  it.each([
    ['slipway.example.com', onLan],
    ['slipway.example.com:443', onLan],
    ['SLIPWAY.Example.com', onLan],
    ['slipway.lan:8080', onLan],
    ['localhost:3000', onLoopback],
    ['127.0.0.1:3000', onLoopback],
    ['[::1]:3000', onLoopback],
    ['localhost:3000', inContainer],
    ['172.18.0.3:3000', inContainer],
    ['10.0.0.2:3000', onLan],
  ])('answers to %s', (host, arrival) => {
    expect(hosts.allowsHost(host, arrival)).toBe(true);
  });

  it.each([
    [undefined, onLoopback],
    ['', onLoopback],
    ['attacker.example:3000', onLoopback],
    ['attacker.example', onLoopback],
    ['slipway.example.com.attacker.example', onLan],
    ['slipway.example.com:8443', onLan],
    ['slipway.lan', onLan],
    ['sub.localhost:3000', onLoopback],
    ['localhost.:3000', onLoopback],
    ['localhost:3001', onLoopback],
    ['localhost', onLoopback],
    ['localhost:99999', onLoopback],
    // Loopback names cannot reach a server bound to one other address.
    ['localhost:3000', onLan],
    // Another address than the one the connection reached.
    ['10.0.0.9:3000', onLan],
    ['a@localhost:3000', onLoopback],
    ['localhost:3000/path', onLoopback],
    ['localhost:3000, attacker.example', onLoopback],
  ])('refuses %s', (host, arrival) => {
    expect(hosts.allowsHost(host, arrival)).toBe(false);
  });

  it('judges an Origin by the allowed names, never by the request it came with', () => {
    expect(hosts.allowsOrigin('https://slipway.example.com', onLan)).toBe(true);
    expect(hosts.allowsOrigin('http://slipway.lan:8080', onLan)).toBe(true);
    expect(hosts.allowsOrigin('http://localhost:3000', onLoopback)).toBe(true);
    expect(hosts.allowsOrigin('http://127.0.0.1:3000', onLoopback)).toBe(true);
    expect(hosts.allowsOrigin('http://attacker.example:3000', onLoopback)).toBe(false);
    expect(hosts.allowsOrigin('http://slipway.example.com', onLan)).toBe(false);
    expect(hosts.allowsOrigin('https://localhost:3000', onLoopback)).toBe(false);
    expect(hosts.allowsOrigin('http://localhost:8081', onLoopback)).toBe(false);
    expect(hosts.allowsOrigin('http://localhost:3000/', onLoopback)).toBe(false);
    expect(hosts.allowsOrigin('null', onLoopback)).toBe(false);
  });

  it('answers to the default port of a public URL written without one, and only to it', () => {
    const plain = new AllowedHosts(['http://slipway.example.com']);
    expect(plain.allowsHost('slipway.example.com', onLan)).toBe(true);
    expect(plain.allowsHost('slipway.example.com:80', onLan)).toBe(true);
    expect(plain.allowsHost('slipway.example.com:443', onLan)).toBe(false);
  });
});
