import { once } from 'node:events';
import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { CredentialWatch } from '../../access/credential-watch.js';
import { badRequest } from '../../common/app-error.js';
import {
  RouteAccess,
  routeContext,
  type RouteAccessDeclaration,
} from '../../kernel/route-access.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { validateInput } from '../../kernel/input-validation.js';
import { AuditExportQuery } from './audit-export.query.js';
import { AuditExporter } from './audit-exporter.js';
import { errorForLog } from '../../common/log-text.js';
import { ADMINS } from '../../kernel/roles.js';

const logger = new Logger('AuditExport');
const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' };

const AUDIT_EXPORT = {
  auth: 'guarded',
  name: 'GET /api/v1/audit/export',
  roles: ADMINS,
  scopes: ['audit:read'],
  summary:
    'Streams the audit trail (NDJSON or CSV) with its checkpoints and a closing signature, for offline verification',
  query: AuditExportQuery,
} satisfies RouteAccessDeclaration;

@Controller('api/v1/audit')
export class AuditExportController {
  constructor(
    private readonly exporter: AuditExporter,
    private readonly watch: CredentialWatch,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  /**
   * Streams the trail with its checkpoints and a closing signature, for offline verification
   * (`slipway audit verify-export`). Written as it is read, with back-pressure.
   */
  @Get('export')
  @RouteAccess(AUDIT_EXPORT)
  async export(@Req() req: Request, @Res() res: Response): Promise<void> {
    const query = (await validateInput(AuditExportQuery, { ...req.query })) as AuditExportQuery;
    const format = query.format ?? 'ndjson';
    const fromPosition = query.from ? await this.position(query.from, 'from') : undefined;
    const toPosition = query.to ? await this.position(query.to, 'to') : undefined;
    if (fromPosition !== undefined && toPosition !== undefined && fromPosition > toPosition) {
      throw badRequest('from must not be after to', [{ path: 'to', message: 'before from' }]);
    }
    res.status(200);
    res.setHeader('Content-Type', CONTENT_TYPES[format]);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Disposition', `attachment; filename="slipway-audit-export.${format}"`);
    // A client that reads slowly holds the export open: it ends with the caller's credential
    // (cut off, so visibly incomplete), and a wait for it to read ends when it leaves.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const lease = this.watch.watch(routeContext(req), [AUDIT_EXPORT], gone.signal);
    const stop = AbortSignal.any([gone.signal, lease.signal]);
    try {
      for await (const chunk of this.exporter.chunks(format, { fromPosition, toPosition })) {
        if (stop.aborted) break;
        if (!res.write(chunk)) await once(res, 'drain', { signal: stop }).catch(() => undefined);
      }
      if (stop.aborted) res.destroy();
      else res.end();
    } catch (error) {
      // Mid-stream the status is sent: cut the connection so the export is visibly incomplete
      // (it lacks its signature and fails verification).
      logger.error('Export failed', errorForLog(error));
      res.destroy();
    } finally {
      lease.stop();
    }
  }

  /** A position as given, or the first (from) / last (to) position recorded at that time. */
  private async position(value: string, bound: 'from' | 'to'): Promise<number> {
    if (/^\d+$/.test(value)) return Number(value);
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) throw badRequest(`${bound} is not a valid time`);
    const trail = this.reads.collection<AuditEntryDoc>('audit_trail');
    const iso = at.toISOString();
    const found =
      bound === 'from'
        ? await trail.find({ at: { $gte: iso } }, { sort: { position: 1 }, limit: 1 })
        : await trail.find({ at: { $lt: iso } }, { sort: { position: -1 }, limit: 1 });
    return found.items[0]?.position ?? (bound === 'from' ? Number.MAX_SAFE_INTEGER : 0);
  }
}
