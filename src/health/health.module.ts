import { Module } from '@nestjs/common';
import { HealthHandler } from './health.handler.js';
import { HealthProcedures } from './health.procedures.js';

@Module({ providers: [HealthHandler, HealthProcedures] })
export class HealthModule {}
