import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { RequestContext } from '../kernel/request-context.js';
import {
  methodForLane,
  Procedure,
  type HttpMethod,
  type ProcedureOptions,
} from '../kernel/procedure.js';

export interface RegisteredProcedure extends ProcedureOptions {
  method: HttpMethod;
  path: string;
  invoke(input: unknown, ctx: RequestContext): Promise<unknown>;
}

const NAME = /^[a-z][A-Za-z0-9]{0,63}$/;
const SCOPE = /^[a-z]+(?:[-_][a-z]+)*:[a-z]+(?:[-_][a-z]+)*$/;

/** Every procedure in the application, found once at start-up from `@Procedure` methods. */
@Injectable()
export class ProcedureRegistry implements OnModuleInit {
  private readonly procedures = new Map<string, RegisteredProcedure>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const options = this.discovery.getMetadataByDecorator(Procedure, wrapper, methodName);
        if (!options) continue;
        const method = (instance as Record<string, unknown>)[methodName] as (
          input: unknown,
          ctx: RequestContext,
        ) => unknown;
        this.register(options, async (input, ctx) => method.call(instance, input, ctx));
      }
    }
  }

  register(options: ProcedureOptions, invoke: RegisteredProcedure['invoke']): void {
    validateDeclaration(options);
    if (this.procedures.has(options.name)) {
      throw new Error(`procedure ${options.name} is declared twice`);
    }
    this.procedures.set(options.name, {
      ...options,
      method: methodForLane(options.lane),
      path: `/trpc/${options.name}`,
      invoke,
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
  for (const scope of options.scopes) {
    if (!SCOPE.test(scope)) throw new Error(`${where}: invalid scope ${scope}`);
  }
  if (!options.description?.trim()) throw new Error(`${where}: needs a description`);
}
