import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { usePageTitle } from '@/lib/use-page-title';
import { useConsentTemplate } from '../api/consent-templates-api';
import { useConsentsScope } from '../components/use-consents-scope';
import { emptyModel, modelOf } from './editor-model';
import { TemplateEditor } from './template-editor';
import { PreviewDocument } from './template-preview';

function Frame({ title, badges, children }: { title: string; badges?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-4xl grid-cols-[minmax(0,1fr)] gap-6">
      <header className="grid gap-2">
        <Link to="/consents" className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden /> Consentimientos
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 break-words font-display text-3xl font-semibold tracking-tight">{title}</h1>
          {badges}
        </div>
      </header>
      {children}
    </div>
  );
}

export function ConsentEditorRoute() {
  const { id } = useParams();
  const scope = useConsentsScope();
  if (!scope.ready) return <PageSpinner />;
  return <Editor key={`${scope.wid}:${id ?? 'new'}`} id={id ?? null} />;
}

function Editor({ id }: { id: string | null }) {
  const { wid, canCreate, canUpdate } = useConsentsScope();
  const query = useConsentTemplate(wid, id);
  const [generation, setGeneration] = useState(0);
  const data = query.data;
  const title = !id ? 'Nueva plantilla' : (data?.name ?? 'Plantilla');
  usePageTitle(title, 'Consentimientos');

  if (id && query.isError && !data) {
    return (
      <Frame title="Plantilla">
        <LoadError error={query.error} onRetry={() => void query.refetch()} what="la plantilla" />
      </Frame>
    );
  }
  if (id && !data) return <PageSpinner />;
  if (!id && !canCreate) {
    return (
      <Frame title={title}>
        <NoAccess title="No puedes crear plantillas de consentimiento en este espacio" />
      </Frame>
    );
  }
  const badges = data ? (
    <>
      <Badge variant="accent" data-testid="template-version">
        Versión {data.version}
      </Badge>
      {data.archivedAt ? <Badge variant="warning">Archivada</Badge> : null}
    </>
  ) : null;
  // Who may read but not edit the templates sees the document as it is sent.
  if (data && !canUpdate) {
    return (
      <Frame title={title} badges={badges}>
        <p className="text-sm text-muted-foreground">
          Puedes consultar esta plantilla, pero no editarla. Las variables llevan datos de ejemplo.
        </p>
        <div className="rounded-xl border bg-card p-5 sm:p-8">
          <PreviewDocument model={modelOf(data)} />
        </div>
      </Frame>
    );
  }
  return (
    <Frame title={title} badges={badges}>
      <TemplateEditor
        key={generation}
        wid={wid}
        template={data ?? null}
        initial={data ? modelOf(data) : emptyModel()}
        onReload={async () => {
          await query.refetch();
          setGeneration((g) => g + 1);
        }}
      />
    </Frame>
  );
}

export { ConsentEditorRoute as Component };
