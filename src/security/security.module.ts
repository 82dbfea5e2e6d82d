import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { SecurityProcedures } from './security.procedures.js';

@Module({ imports: [AccessModule], providers: [SecurityProcedures] })
export class SecurityModule {}
