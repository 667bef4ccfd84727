import { Bookmark, BookmarkCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useBookmark } from '../api/learning-api';

/** The favourite toggle: shown at once, put back (with the reason) if the server refuses. */
export function BookmarkButton({ videoId, on }: { videoId: string; on: boolean }) {
  const bookmark = useBookmark(videoId);
  const Icon = on ? BookmarkCheck : Bookmark;
  return (
    <Button
      variant="outline"
      size="sm"
      aria-pressed={on}
      disabled={bookmark.isPending}
      onClick={() =>
        bookmark.mutate(!on, {
          onSuccess: () => toast.success(on ? 'Quitado de tus favoritos' : 'Guardado en tus favoritos'),
          onError: (e) => toast.error(messageOf(e)),
        })
      }
    >
      <Icon aria-hidden className={on ? 'text-primary' : undefined} />
      {on ? 'En favoritos' : 'Guardar en favoritos'}
    </Button>
  );
}
