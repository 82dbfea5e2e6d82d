import { describe, expect, it } from '@jest/globals';
import { addressPolicyProblems, addressVerdict, compileAddressPolicy } from './address-policy.js';

const verdict = (setting: string, address: string) =>
  addressVerdict(compileAddressPolicy(setting), address);

describe('the server address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.10.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
  ])('by default refuses %s (%s)', (address, rule) => {
    expect(verdict('', address)).toEqual({ allowed: false, rule });
  });

  it.each(['10.0.0.5', '172.16.3.4', '192.168.1.10', 'fd12::1', '203.0.113.7', '2001:db8::1'])(
    'by default allows private and public %s',
    (address) => {
      expect(verdict('', address).allowed).toBe(true);
    },
  );

  it('lets the setting allow loopback, yet keeps the metadata addresses inside link-local refused', () => {
    expect(verdict('allow:loopback', '127.0.0.1')).toEqual({ allowed: true, rule: 'loopback' });
    expect(verdict('allow:loopback', '::ffff:127.0.0.1').allowed).toBe(true);
    expect(verdict('allow:link-local', '169.254.10.1').allowed).toBe(true);
    expect(verdict('allow:link-local', '169.254.169.254')).toEqual({
      allowed: false,
      rule: 'metadata',
    });
    expect(verdict('allow:169.254.169.254', '169.254.169.254').allowed).toBe(true);
  });

  it('refuses private ranges when told to, and the most specific entry wins', () => {
    const setting = 'deny:private, allow:10.1.0.0/16';
    expect(verdict(setting, '10.2.0.1')).toEqual({ allowed: false, rule: 'private' });
    expect(verdict(setting, '10.1.0.1')).toEqual({ allowed: true, rule: '10.1.0.0/16' });
    expect(verdict(setting, '203.0.113.7').allowed).toBe(true);
  });

  it('names what is wrong with a setting', () => {
    expect(addressPolicyProblems('allow:loopback deny:10.0.0.0/8 allow:::1')).toEqual([]);
    expect(addressPolicyProblems('allow:everything,permit:loopback,deny:0x7f.1')).toHaveLength(3);
  });
});
