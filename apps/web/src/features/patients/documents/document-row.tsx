import {
  Download,
  FileImage,
  FileSpreadsheet,
  FileText,
  File as FileIcon,
  MoreHorizontal,
  Pencil,
  Tags,
  Trash2,
  Users,
} from 'lucide-react';
import type { PatientDocument } from '@divan/core';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { formatDate } from '@/lib/format';
import { Badge } from '@/components/ui/badge';
import { Switch } from '@/components/ui/switch';
import { formatFileSize } from '../utils/format';
import { typeLabel } from './document-types';

type Props = {
  doc: PatientDocument;
  onDownload: () => void;
  onShare: ((shared: boolean) => void) | null;
  sharePending: boolean;
  onRename: (() => void) | null;
  onTags: (() => void) | null;
  onDelete: (() => void) | null;
};

function TypeIcon({ type }: { type: string }) {
  const Icon = type.startsWith('image/')
    ? FileImage
    : type.includes('spreadsheet')
      ? FileSpreadsheet
      : type === 'application/pdf' || type.includes('word') || type.includes('text')
        ? FileText
        : FileIcon;
  return (
    <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
      <Icon className="size-5" aria-hidden />
    </span>
  );
}

export function DocumentRow({ doc, onDownload, onShare, sharePending, onRename, onTags, onDelete }: Props) {
  const shareId = `share-${doc.id}`;
  return (
    <li className="flex flex-wrap items-start gap-3 p-4 sm:flex-nowrap sm:items-center">
      <TypeIcon type={doc.contentType} />
      <div className="grid min-w-0 flex-1 basis-48 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={onDownload}
            className="min-w-0 truncate text-left font-medium hover:underline"
            title={`Descargar ${doc.name}`}
          >
            {doc.name}
          </button>
          {doc.shared ? (
            <Badge variant="accent" className="[&_svg]:size-3.5">
              <Users aria-hidden /> Compartido
            </Badge>
          ) : null}
        </div>
        <p className="text-[0.8125rem] text-muted-foreground">
          {typeLabel(doc.contentType)} · {formatFileSize(doc.size)} · Subido el {formatDate(doc.createdAt)}
          {doc.updatedAt.slice(0, 10) !== doc.createdAt.slice(0, 10) ? ` · Modificado el ${formatDate(doc.updatedAt)}` : ''}
          {doc.uploadedBy ? ` por ${doc.uploadedBy.name}` : ''}
        </p>
        {doc.tags.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Etiquetas">
            {doc.tags.map((t) => (
              <li key={t}>
                <Badge>{t}</Badge>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="ml-13 flex items-center gap-2 sm:ml-0">
        {onShare ? (
          <label htmlFor={shareId} className="flex cursor-pointer items-center gap-2 text-[0.8125rem] text-muted-foreground">
            <Switch
              id={shareId}
              checked={doc.shared}
              disabled={sharePending}
              onCheckedChange={onShare}
              aria-label={`Compartir «${doc.name}» con el paciente`}
            />
            <span className="hidden lg:inline">Compartido con el paciente</span>
            <span className="lg:hidden">Compartir</span>
          </label>
        ) : null}
        <DropdownMenu>
          <DropdownMenuTrigger
            className="grid size-8 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
            aria-label={`Acciones de «${doc.name}»`}
          >
            <MoreHorizontal className="size-4" aria-hidden />
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={onDownload}>
              <Download aria-hidden /> Descargar
            </DropdownMenuItem>
            {onRename ? (
              <DropdownMenuItem onSelect={onRename}>
                <Pencil aria-hidden /> Cambiar nombre
              </DropdownMenuItem>
            ) : null}
            {onTags ? (
              <DropdownMenuItem onSelect={onTags}>
                <Tags aria-hidden /> Etiquetas
              </DropdownMenuItem>
            ) : null}
            {onDelete ? (
              <>
                <DropdownMenuSeparator />
                <DropdownMenuItem onSelect={onDelete} className="text-destructive [&_svg]:!text-destructive">
                  <Trash2 aria-hidden /> Eliminar
                </DropdownMenuItem>
              </>
            ) : null}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </li>
  );
}
