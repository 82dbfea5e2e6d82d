import { describe, expect, it } from '@jest/globals';
import type { DiscoveryService } from '@nestjs/core';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ProcedureOptions } from '../kernel/procedure.js';
import { ProcedureRegistry } from './procedure-registry.js';

const base: ProcedureOptions = {
  name: 'listThings',
  lane: 'read',
  auth: 'authenticated',
  roles: ['owner'],
  scopes: ['service:read'],
  description: 'Lists things.',
};

function registry(): ProcedureRegistry {
  return new ProcedureRegistry({} as DiscoveryService, {} as CommandBus, {} as QueryBus);
}

describe('ProcedureRegistry declarations', () => {
  const invoke = async () => null;

  it('derives the method from the lane and the path from the name', () => {
    const r = registry();
    r.register(base, invoke);
    r.register({ ...base, name: 'planThing', lane: 'planning', scopes: ['deploy:plan'] }, invoke);
    r.register({ ...base, name: 'makeThing', lane: 'command', scopes: ['service:write'] }, invoke);
    expect(r.list().map((p) => [p.name, p.method, p.path])).toEqual([
      ['listThings', 'GET', '/trpc/listThings'],
      ['makeThing', 'POST', '/trpc/makeThing'],
      ['planThing', 'GET', '/trpc/planThing'],
    ]);
  });

  it.each([
    ['a duplicate name', [base, base], /twice/],
    ['an authenticated procedure without roles', [{ ...base, roles: [] }], /roles/],
    ['a public procedure with scopes', [{ ...base, auth: 'public', roles: [] }], /public/],
    [
      'a public command',
      [{ ...base, auth: 'public', roles: [], scopes: [], lane: 'command' }],
      /public/,
    ],
    ['an unknown auth mode', [{ ...base, auth: 'none' }], /auth must be/],
    ['a malformed scope', [{ ...base, scopes: ['everything'] }], /invalid scope/],
    ['a malformed name', [{ ...base, name: 'list-things' }], /invalid name/],
    ['no description', [{ ...base, description: ' ' }], /description/],
    [
      'a command whose answer would be kept',
      [{ ...base, lane: 'command', scopes: ['service:write'], readModelsOnly: true }],
      /only a read/,
    ],
  ])('refuses %s, so nothing reaches the wire undeclared', (_label, declarations, message) => {
    const r = registry();
    expect(() => {
      for (const d of declarations) r.register(d as ProcedureOptions, invoke);
    }).toThrow(message);
  });
});
