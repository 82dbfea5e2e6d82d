import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildContract, type ApiContract } from './build-contract.js';
import { loadLiveDeclarations } from './load-registry.js';
import { PROCEDURE_MESSAGES_PATH, renderProcedureMessages } from './procedure-messages.js';
import { PROCEDURE_TABLE_PATH, renderProcedureTable } from './procedure-table.js';
import { buildReadModelContract } from './read-model-schema.js';
import { renderClientContract, CLIENT_CONTRACT_PATH } from './client-contract.js';

// dist/contract/contract-cli.js and contract/contract-cli.ts both sit two levels below the root.
const contractFile = fileURLToPath(new URL('../../contract/api-contract.json', import.meta.url));
const clientContractFile = fileURLToPath(new URL(`../../${CLIENT_CONTRACT_PATH}`, import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const readModelsFile = `${root}/contract/read-models.json`;
const procedureTableFile = `${root}/${PROCEDURE_TABLE_PATH}`;
const procedureMessagesFile = `${root}/${PROCEDURE_MESSAGES_PATH}`;

function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Drift lines for contract/read-models.json; empty when it matches the document types. */
function readModelDrift(rendered: string): string[] {
  if (!existsSync(readModelsFile)) return ['contract/read-models.json is missing'];
  const committed = JSON.parse(readFileSync(readModelsFile, 'utf8')) as {
    collections?: Record<string, unknown>;
  };
  const live = JSON.parse(rendered) as { collections: Record<string, unknown> };
  const before = committed.collections ?? {};
  const lines: string[] = [];
  for (const name of Object.keys(live.collections)) {
    if (!(name in before)) lines.push(`+ ${name} (a collection not in read-models.json)`);
    else if (JSON.stringify(before[name]) !== JSON.stringify(live.collections[name])) {
      lines.push(`~ ${name} (document shape changed)`);
    }
  }
  for (const name of Object.keys(before)) {
    if (!(name in live.collections)) lines.push(`- ${name} (no longer a collection)`);
  }
  if (lines.length === 0 && readFileSync(readModelsFile, 'utf8') !== rendered) {
    lines.push('formatting or description changed');
  }
  return lines;
}
const openApiFile = fileURLToPath(new URL('../../contract/openapi.json', import.meta.url));

function render(contract: ApiContract): string {
  return `${JSON.stringify(contract, null, 2)}\n`;
}

function describeDrift(committed: ApiContract | null, live: ApiContract): string[] {
  if (!committed) return ['contract/api-contract.json is missing'];
  const byName = (c: ApiContract) => new Map(c.procedures.map((p) => [p.name, JSON.stringify(p)]));
  const before = byName(committed);
  const after = byName(live);
  const lines: string[] = [];
  for (const name of after.keys()) {
    if (!before.has(name)) lines.push(`+ ${name} (in the registry, not in the contract)`);
    else if (before.get(name) !== after.get(name)) lines.push(`~ ${name} (declaration changed)`);
  }
  for (const name of before.keys()) {
    if (!after.has(name)) lines.push(`- ${name} (in the contract, not in the registry)`);
  }
  return lines.length ? lines : ['conventions or definitions changed'];
}

async function main(): Promise<void> {
  const command = process.argv[2];
  const declarations = await loadLiveDeclarations();
  const live = buildContract(declarations.procedures);
  const openApi = `${JSON.stringify(declarations.openApi, null, 2)}\n`;
  const readModels = renderJson(buildReadModelContract(root));
  const messages = renderProcedureMessages(
    root,
    live.procedures.map((p) => p.name),
  );
  if (command === 'generate') {
    writeFileSync(procedureMessagesFile, messages);
    console.log(`Wrote ${procedureMessagesFile} (each procedure's message type)`);
    writeFileSync(readModelsFile, readModels);
    console.log(`Wrote ${readModelsFile} (the read-model document schemas)`);
    writeFileSync(contractFile, render(live));
    writeFileSync(openApiFile, openApi);
    console.log(`Wrote ${openApiFile} (the OpenAPI document of /api/v1)`);
    writeFileSync(clientContractFile, renderClientContract(live));
    console.log(`Wrote ${contractFile} (${live.procedures.length} procedures)`);
    console.log(`Wrote ${clientContractFile} (the typed client's contract)`);
    writeFileSync(procedureTableFile, renderProcedureTable(live));
    console.log(`Wrote ${procedureTableFile} (the list of procedures)`);
    return;
  }
  if (command === 'check') {
    const drift = readModelDrift(readModels);
    if (drift.length) {
      console.error("contract/read-models.json differs from the read store's document types:");
      for (const line of drift) console.error(`  ${line}`);
      console.error('Run `npm run contract:generate` and commit the result.');
      process.exit(1);
    }
    console.log("contract/read-models.json matches the read store's document types");
    const committedOpenApi = existsSync(openApiFile) ? readFileSync(openApiFile, 'utf8') : null;
    if (committedOpenApi !== openApi) {
      console.error('contract/openapi.json differs from the routes of /api/v1 (or is missing).');
      console.error('Run `npm run contract:generate` and commit the result.');
      process.exit(1);
    }
    console.log('contract/openapi.json matches the routes of /api/v1');
    const table = existsSync(procedureTableFile) ? readFileSync(procedureTableFile, 'utf8') : null;
    if (table !== renderProcedureTable(live)) {
      console.error(`${PROCEDURE_TABLE_PATH} differs from the contract (or is missing).`);
      console.error('Run `npm run contract:generate` and commit the result.');
      process.exit(1);
    }
    console.log(`${PROCEDURE_TABLE_PATH} matches the contract`);
    const committedMessages = existsSync(procedureMessagesFile)
      ? readFileSync(procedureMessagesFile, 'utf8')
      : null;
    if (committedMessages !== messages) {
      console.error(`${PROCEDURE_MESSAGES_PATH} differs from the declarations (or is missing).`);
      console.error('Run `npm run contract:generate` and commit the result.');
      process.exit(1);
    }
    console.log(`${PROCEDURE_MESSAGES_PATH} matches the declarations`);
    const text = existsSync(contractFile) ? readFileSync(contractFile, 'utf8') : null;
    const web = existsSync(clientContractFile) ? readFileSync(clientContractFile, 'utf8') : null;
    if (text === render(live) && web === renderClientContract(live)) {
      console.log(`Contract matches the registry (${live.procedures.length} procedures)`);
      console.log(`${CLIENT_CONTRACT_PATH} matches the contract`);
      return;
    }
    if (text === render(live)) {
      console.error(`${CLIENT_CONTRACT_PATH} differs from the contract (or is missing).`);
      console.error('Run `npm run contract:generate` and commit the result.');
      process.exit(1);
    }
    console.error('contract/api-contract.json differs from the live procedure registry:');
    for (const line of describeDrift(text ? (JSON.parse(text) as ApiContract) : null, live)) {
      console.error(`  ${line}`);
    }
    console.error('Run `npm run contract:generate` and commit the result.');
    process.exit(1);
  }
  console.error('usage: contract-cli generate|check');
  process.exit(2);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
