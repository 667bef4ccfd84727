import { ChevronDown, Download, FileCode2, FileSpreadsheet } from 'lucide-react';
import type { InvoiceListQuery } from '@divan/core';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { downloadInvoiceExport, downloadVerifactuXml } from '../api/support-api';

/**
 * «Exportar»: the filtered issued invoices for the accountant (Excel or CSV), and the VERI*FACTU records
 * of the same period as the AEAT's XML (the member's own tax id; this year when no period is chosen).
 */
export function ExportMenu({ wid, query, className }: { wid: string; query: Partial<InvoiceListQuery>; className?: string }) {
  const fail = (e: unknown) => toast.error(messageOf(e));
  const verifactu = async () => {
    const found = await downloadVerifactuXml(wid, { from: query.from, to: query.to });
    if (!found) toast.info('No hay registros VERI*FACTU tuyos en ese periodo.');
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className={className}>
          <Download aria-hidden /> Exportar <ChevronDown className="size-4 opacity-60" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void downloadInvoiceExport(wid, query, 'xlsx').catch(fail)}>
          <FileSpreadsheet aria-hidden /> Excel (.xlsx)
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void downloadInvoiceExport(wid, query, 'csv').catch(fail)}>
          <FileSpreadsheet aria-hidden /> CSV
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void verifactu().catch(fail)}>
          <FileCode2 aria-hidden /> Registros VERI*FACTU (XML)
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
