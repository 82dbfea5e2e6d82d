import { Module } from '@nestjs/common';
import { HealthHandler } from './health.handler.js';

@Module({ providers: [HealthHandler] })
export class HealthModule {}
