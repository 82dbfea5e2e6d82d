import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { DiscoveryService } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { RequestContext } from '../kernel/request-context.js';
import {
  methodForLane,
  Procedure,
  type HttpMethod,
  type ProcedureDeclaration,
  type ProcedureOptions,
} from '../kernel/procedure.js';
import { ProcedureCommand, ProcedureQuery } from '../kernel/procedure-message.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { KeptAnswers } from './kept-answers.js';

export interface RegisteredProcedure extends ProcedureOptions {
  method: HttpMethod;
  path: string;
  invoke(input: unknown, ctx: RequestContext): Promise<unknown>;
}

const NAME = /^[a-z][A-Za-z0-9]{0,63}$/;
const SCOPE = /^[a-z]+(?:[-_][a-z]+)*:[a-z]+(?:[-_][a-z]+)*$/;

/**
 * Every procedure in the application, found once at start-up from the `@Procedure`
 * declarations on handler classes. A call sends the procedure's message on its bus.
 */
@Injectable()
export class ProcedureRegistry implements OnModuleInit {
  private readonly procedures = new Map<string, RegisteredProcedure>();
  private readonly kept: KeptAnswers | null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(READ_STORE) reads?: ReadStore,
    @Optional() private readonly access?: AccessService,
  ) {
    this.kept = reads ? new KeptAnswers(reads) : null;
  }

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const declared = this.discovery.getMetadataByDecorator(Procedure.declaration, wrapper);
      if (declared) this.registerDeclaration(declared);
    }
  }

  private registerDeclaration({ message, ...options }: ProcedureDeclaration): void {
    const onCommandBus = options.lane === 'command';
    if (onCommandBus !== message.prototype instanceof ProcedureCommand) {
      const takes = onCommandBus ? 'ProcedureCommand' : 'ProcedureQuery';
      throw new Error(`procedure ${options.name}: a ${options.lane} procedure takes a ${takes}`);
    }
    this.register(options, (input, ctx) => {
      const sent = new message(input as never, ctx);
      return onCommandBus
        ? this.commands.execute(sent as ProcedureCommand<unknown, unknown>)
        : this.queries.execute(sent as ProcedureQuery<unknown, unknown>);
    });
  }

  register(options: ProcedureOptions, invoke: RegisteredProcedure['invoke']): void {
    validateDeclaration(options);
    if (this.procedures.has(options.name)) {
      throw new Error(`procedure ${options.name} is declared twice`);
    }
    const answer =
      options.readModelsOnly && this.kept ? this.kept.around(options.name, invoke) : invoke;
    // A call on something in a project is judged in that project first, on every surface
    // (and before a kept answer could be shared with it).
    const access = this.access;
    if ((options.project || options.projectList) && !access) {
      throw new Error(`procedure ${options.name}: judged per project, but no access service`);
    }
    this.procedures.set(options.name, {
      ...options,
      method: methodForLane(options.lane),
      path: `/trpc/${options.name}`,
      invoke:
        options.project || options.projectList
          ? async (input, ctx) => {
              const judged = options.project ? await access!.inProject(options, ctx, input) : ctx;
              // A list: everyone who reads every project shares the same answer; anyone else
              // gets one of their own, from the projects they read.
              const readable = options.projectList ? await access!.readableProjects(judged) : null;
              return readable === null
                ? answer(input, judged)
                : invoke(input, { ...judged, readableProjects: readable });
            }
          : answer,
    });
  }

  get(name: string): RegisteredProcedure | undefined {
    return this.procedures.get(name);
  }

  list(): RegisteredProcedure[] {
    return [...this.procedures.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** A declaration that could expose a procedure without access control never starts. */
function validateDeclaration(options: ProcedureOptions): void {
  const where = `procedure ${options.name}`;
  if (!NAME.test(options.name)) throw new Error(`${where}: invalid name`);
  if (options.auth === 'public') {
    if (options.roles.length || options.scopes.length || options.lane !== 'read') {
      throw new Error(`${where}: a public procedure is read-lane with no roles or scopes`);
    }
  } else if (options.auth === 'authenticated') {
    if (options.roles.length === 0) throw new Error(`${where}: declare the roles allowed`);
  } else {
    throw new Error(`${where}: auth must be public or authenticated`);
  }
  if (options.readModelsOnly && options.lane !== 'read') {
    throw new Error(`${where}: only a read answers from the read models alone`);
  }
  for (const scope of options.scopes) {
    if (!SCOPE.test(scope)) throw new Error(`${where}: invalid scope ${scope}`);
  }
  if (!options.description?.trim()) throw new Error(`${where}: needs a description`);
}
