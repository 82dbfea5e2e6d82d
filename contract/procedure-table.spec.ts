import { describe, expect, it } from '@jest/globals';
import type { ApiContract, ContractProcedure } from './build-contract.js';
import { renderProcedureTable } from './procedure-table.js';

const procedure = (over: Partial<ContractProcedure>): ContractProcedure => ({
  name: 'p',
  path: '/trpc/p',
  method: 'GET',
  lane: 'read',
  auth: 'authenticated',
  roles: ['owner'],
  scopes: [],
  description: 'does p',
  mfaExempt: false,
  sessionOnly: false,
  project: null,
  projectList: false,
  ownOnly: false,
  input: null,
  ...over,
});

const contract = (procedures: ContractProcedure[]): ApiContract => ({
  product: 'Slipway',
  procedureRoot: '/trpc',
  conventions: {},
  errors: {},
  procedures,
  definitions: {},
});

describe('the generated list of procedures', () => {
  it('lists each procedure in its lane with who, scopes, input and what it does', () => {
    const page = renderProcedureTable(
      contract([
        procedure({
          name: 'triggerDeploy',
          method: 'POST',
          lane: 'command',
          roles: ['owner', 'agent'],
          scopes: ['deploy:start'],
          project: { service: 'serviceId' },
          description: 'Queues a | deployment\nof a service.',
          input: {
            properties: { serviceId: {}, imageTag: {}, note: {} },
            required: ['serviceId', 'imageTag'],
          },
        }),
        procedure({ name: 'health', auth: 'public', roles: [] }),
      ]),
    );
    expect(page).toContain('## Command lane (1)');
    expect(page).toContain(
      '| `triggerDeploy` | POST | owner, agent; in the project of the service `serviceId` | `deploy:start` | `serviceId`, `imageTag`, `note?` | Queues a \\| deployment of a service. |',
    );
    expect(page).toContain('## Read lane (1)');
    expect(page).toContain('| `health` | GET | anyone | — | — | does p |');
    expect(page).not.toContain('## Planning lane');
  });

  it('says which procedures act on the whole team, out of reach of tokens limited to projects', () => {
    const page = renderProcedureTable(
      contract([
        procedure({ name: 'auditTrail' }),
        procedure({ name: 'viewer', ownOnly: true }),
        procedure({ name: 'services', projectList: true }),
        procedure({ name: 'serviceDetails', project: { service: 'serviceId' } }),
      ]),
    );
    expect(page).toContain('| `auditTrail` | GET | owner; team-wide |');
    expect(page).toContain('| `viewer` | GET | owner |');
    expect(page).toContain('| `services` | GET | owner |');
    expect(page).toContain(
      '| `serviceDetails` | GET | owner; in the project of the service `serviceId` |',
    );
  });
});
