import { AuditModule } from '../audit/audit.module.js';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AccessModule } from '../access/access.module.js';
import { CallPipeline } from './pipeline/call-pipeline.js';
import { ProcedureRegistry } from './procedure-registry.js';
import { RpcController } from './rpc.controller.js';

@Module({
  imports: [DiscoveryModule, AccessModule, AuditModule],
  controllers: [RpcController],
  providers: [ProcedureRegistry, CallPipeline],
  exports: [ProcedureRegistry, CallPipeline],
})
export class RpcModule {}
