import { describe, expect, it } from '@jest/globals';
import type { DiscoveryService } from '@nestjs/core';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AddNoteInput, GetNoteInput } from '../e2e/support/notes.module.js';
import { ProcedureRegistry } from '../src/rpc/procedure-registry.js';
import { buildContract } from './build-contract.js';

describe('buildContract', () => {
  const registry = new ProcedureRegistry({} as DiscoveryService, {} as CommandBus, {} as QueryBus);
  const invoke = async () => null;
  registry.register(
    {
      name: 'getNote',
      lane: 'read',
      auth: 'authenticated',
      roles: ['owner', 'viewer'],
      scopes: ['service:read'],
      input: GetNoteInput,
      description: 'Reads a note.',
    },
    invoke,
  );
  registry.register(
    {
      name: 'addNote',
      lane: 'command',
      auth: 'authenticated',
      roles: ['owner'],
      scopes: ['service:write'],
      input: AddNoteInput,
      description: 'Adds a note.',
    },
    invoke,
  );
  registry.register(
    { name: 'health', lane: 'read', auth: 'public', roles: [], scopes: [], description: 'Health.' },
    invoke,
  );
  const contract = buildContract(registry.list());

  it('lists every declared procedure, sorted, with method, lane, auth, roles and scopes', () => {
    expect(
      contract.procedures.map((p) => [p.name, p.method, p.lane, p.auth, p.roles, p.scopes]),
    ).toEqual([
      ['addNote', 'POST', 'command', 'authenticated', ['owner'], ['service:write']],
      ['getNote', 'GET', 'read', 'authenticated', ['owner', 'viewer'], ['service:read']],
      ['health', 'GET', 'read', 'public', [], []],
    ]);
  });

  it('publishes each input as a JSON Schema with its bounds and no extra fields', () => {
    const addNote = contract.procedures.find((p) => p.name === 'addNote');
    expect(addNote?.input).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['noteId', 'text'],
      properties: {
        noteId: { type: 'string', minLength: 1, maxLength: 64 },
        text: { type: 'string', minLength: 1, maxLength: 1000 },
        remindAt: { oneOf: expect.any(Array) },
      },
    });
    const getNote = contract.procedures.find((p) => p.name === 'getNote');
    expect(getNote?.input).toMatchObject({
      properties: { repeat: { type: 'integer', minimum: 1, maximum: 10 } },
    });
    expect(contract.procedures.find((p) => p.name === 'health')?.input).toBeNull();
  });

  it('is deterministic: the same registry renders the same contract', () => {
    expect(JSON.stringify(buildContract(registry.list()))).toBe(JSON.stringify(contract));
  });
});
