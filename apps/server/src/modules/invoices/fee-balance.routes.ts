import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DEFAULT_TIME_ZONE,
  centsToDecimalText,
  feeBalanceQuery,
  feeBalanceResponse,
  feeBalances,
  shiftDay,
  startOfLocalDay,
  workspaceIdParams,
  type FeeBalance,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import type { SessionInvoicing } from '../sessions/session-invoicing';
import type { UsersService } from '../users/users.service';

const ZONE = DEFAULT_TIME_ZONE;
const cell = (v: string | number) => (typeof v === 'number' ? String(v) : /[";\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The accountant's CSV: Spanish headers, `;` separated, decimal comma, a BOM so Excel reads the accents. */
export function feeBalanceCsv(b: FeeBalance): string {
  const head = [
    'Terapeuta',
    'Sesiones',
    'Facturado',
    'Parte del terapeuta',
    'Comisión del espacio',
    'Cobrado por el espacio',
    'Cobrado por el terapeuta',
    'El espacio debe al terapeuta',
    'El terapeuta debe al espacio',
    'Saldo (positivo: paga el espacio)',
    'Quién debe a quién',
    'Por qué',
  ];
  const lines = b.rows.map((r) =>
    [
      r.therapist.name,
      r.sessions,
      centsToDecimalText(r.billedCents),
      centsToDecimalText(r.feeCents),
      centsToDecimalText(r.commissionCents),
      centsToDecimalText(r.collectedByWorkspaceCents),
      centsToDecimalText(r.collectedByTherapistCents),
      centsToDecimalText(r.workspaceOwesCents),
      centsToDecimalText(r.therapistOwesCents),
      centsToDecimalText(r.balanceCents),
      r.verdict,
      r.reasons.join(' '),
    ]
      .map(cell)
      .join(';'),
  );
  return `\uFEFF${[head.join(';'), ...lines].join('\r\n')}\r\n`;
}

/** GET …/fee-balance: per therapist, what the workspace owes them and what they owe it (workspaces). */
export async function feeBalanceRoutes(app: FastifyInstance, { sessions, users }: { sessions: SessionInvoicing; users: UsersService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/workspaces/:workspaceId/fee-balance',
    {
      config: { access: { workspace: ['read', 'workspace_invoices'] } },
      schema: {
        operationId: 'getFeeBalance',
        tags: ['invoices'],
        description:
          "Completed sessions of the period by therapist: the therapist's share (fee) and the workspace's commission, who collected, who owes whom and why (balance positive: the workspace pays the therapist). `format=csv` for the accountant.",
        params: workspaceIdParams,
        querystring: feeBalanceQuery,
        response: { 200: z.union([feeBalanceResponse, z.string()]) },
      },
    },
    async (req, reply) => {
      const c = caller(req);
      const { from, to, format } = req.query;
      const sums = await sessions.feeSums(c.member.workspaceId, startOfLocalDay(from, ZONE), startOfLocalDay(shiftDay(to, 1), ZONE));
      const names = new Map(
        (await users.findManyByIds([...new Set(sums.map((s) => s.therapistId))])).map((u) => [
          u.id,
          [u.firstName, u.lastName].filter(Boolean).join(' '),
        ]),
      );
      const rows = feeBalances(sums, (id) => names.get(id) ?? 'Usuario eliminado');
      const balance: FeeBalance = {
        from,
        to,
        rows: rows
          .map(({ therapistId, ...r }) => ({ therapist: { id: therapistId, name: names.get(therapistId) ?? 'Usuario eliminado' }, ...r }))
          .sort((a, b) => a.therapist.name.localeCompare(b.therapist.name, 'es')),
      };
      if (format === 'csv')
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="saldo-honorarios-${from}-${to}.csv"`)
          .send(feeBalanceCsv(balance));
      return balance;
    },
  );
}
