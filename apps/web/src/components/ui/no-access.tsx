import { Lock } from 'lucide-react';
import { Card, CardContent } from './card';

/** What a member sees on a workspace page their roles don't include (the server refuses it too). */
export function NoAccess({ title, children }: { title: string; children?: string }) {
  return (
    <Card>
      <CardContent className="grid justify-items-start gap-3 py-8">
        <span className="grid size-10 place-items-center rounded-full bg-muted text-muted-foreground">
          <Lock className="size-5" aria-hidden />
        </span>
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="max-w-prose text-sm text-muted-foreground">
          {children ?? 'Tus roles en este espacio no incluyen este apartado. Si lo necesitas, pídeselo a quien administra el espacio.'}
        </p>
      </CardContent>
    </Card>
  );
}
