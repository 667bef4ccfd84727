import { useEffect, useState, type ReactNode } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { TableKit } from '@tiptap/extension-table';
import { Placeholder } from '@tiptap/extensions';
import {
  Bold,
  Heading2,
  Heading3,
  Italic,
  Link2,
  List,
  ListOrdered,
  Redo2,
  Table,
  Underline,
  Undo2,
  Unlink,
  Rows3,
  Columns3,
  Trash2,
} from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import './rich-text.css';

type Props = {
  value: string;
  onChange: (html: string) => void;
  labelledBy: string;
  invalid?: boolean;
  placeholder?: string;
  /** The TipTap editor, once made: a caller inserts text at the cursor with it (the consent variables). */
  onEditor?: (editor: Editor) => void;
};

function Tool({
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={active}
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()} // keep the selection in the text
      onClick={onClick}
      className={cn(
        'grid size-8 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground disabled:opacity-40 [&_svg]:size-4',
        active && 'bg-accent text-accent-foreground',
      )}
    >
      {children}
    </button>
  );
}

const Sep = () => <span className="mx-1 h-5 w-px bg-border" aria-hidden />;

function LinkBar({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [href, setHref] = useState<string>(() => (editor.getAttributes('link').href as string | undefined) ?? 'https://');
  const apply = () => {
    const url = href.trim();
    if (!url || url === 'https://') editor.chain().focus().extendMarkRange('link').unsetLink().run();
    else
      editor
        .chain()
        .focus()
        .extendMarkRange('link')
        .setLink({ href: /^(https?:|mailto:)/i.test(url) ? url : `https://${url}` })
        .run();
    onClose();
  };
  return (
    <div className="flex flex-wrap items-center gap-2 border-b bg-muted/40 px-2 py-2">
      <Input
        autoFocus
        aria-label="Dirección del enlace"
        value={href}
        onChange={(e) => setHref(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
        className="h-8 min-w-0 flex-1 text-sm"
      />
      <Button type="button" size="sm" onClick={apply}>
        Aplicar
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onClose}>
        Cancelar
      </Button>
    </div>
  );
}

/** The clinical-note editor (TipTap): loaded only when a history entry is written or edited. */
export function RichTextEditor({
  value,
  onChange,
  labelledBy,
  invalid,
  placeholder = 'Escribe aquí la nota de la sesión…',
  onEditor,
}: Props) {
  const [linking, setLinking] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      TableKit.configure({ table: { resizable: false } }),
      Placeholder.configure({ placeholder }),
    ],
    content: value,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        class: 'rich-text px-4 py-3',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        spellcheck: 'true',
        lang: 'es',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  useEffect(() => onEditor?.(editor), [editor, onEditor]);

  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
      table: e.isActive('table'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });

  const c = () => editor.chain().focus();
  return (
    <div
      className={cn(
        'overflow-hidden rounded-md border border-input bg-card shadow-xs focus-within:border-ring focus-within:outline-2 focus-within:outline-ring',
        invalid && 'border-destructive',
      )}
    >
      <div role="toolbar" aria-label="Formato" className="flex flex-wrap items-center gap-0.5 border-b bg-muted/30 px-1.5 py-1">
        <Tool label="Negrita (Ctrl+B)" active={s.bold} onClick={() => c().toggleBold().run()}>
          <Bold aria-hidden />
        </Tool>
        <Tool label="Cursiva (Ctrl+I)" active={s.italic} onClick={() => c().toggleItalic().run()}>
          <Italic aria-hidden />
        </Tool>
        <Tool label="Subrayado (Ctrl+U)" active={s.underline} onClick={() => c().toggleUnderline().run()}>
          <Underline aria-hidden />
        </Tool>
        <Sep />
        <Tool label="Título" active={s.h2} onClick={() => c().toggleHeading({ level: 2 }).run()}>
          <Heading2 aria-hidden />
        </Tool>
        <Tool label="Subtítulo" active={s.h3} onClick={() => c().toggleHeading({ level: 3 }).run()}>
          <Heading3 aria-hidden />
        </Tool>
        <Tool label="Lista" active={s.bullet} onClick={() => c().toggleBulletList().run()}>
          <List aria-hidden />
        </Tool>
        <Tool label="Lista numerada" active={s.ordered} onClick={() => c().toggleOrderedList().run()}>
          <ListOrdered aria-hidden />
        </Tool>
        <Sep />
        <Tool label="Enlace" active={s.link} onClick={() => setLinking(true)}>
          <Link2 aria-hidden />
        </Tool>
        {s.link ? (
          <Tool label="Quitar enlace" onClick={() => c().extendMarkRange('link').unsetLink().run()}>
            <Unlink aria-hidden />
          </Tool>
        ) : null}
        <Tool label="Insertar tabla" onClick={() => c().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}>
          <Table aria-hidden />
        </Tool>
        {s.table ? (
          <>
            <Tool label="Añadir fila" onClick={() => c().addRowAfter().run()}>
              <Rows3 aria-hidden />
            </Tool>
            <Tool label="Añadir columna" onClick={() => c().addColumnAfter().run()}>
              <Columns3 aria-hidden />
            </Tool>
            <Tool label="Eliminar tabla" onClick={() => c().deleteTable().run()}>
              <Trash2 aria-hidden />
            </Tool>
          </>
        ) : null}
        <span className="ml-auto flex">
          <Tool label="Deshacer (Ctrl+Z)" disabled={!s.undo} onClick={() => c().undo().run()}>
            <Undo2 aria-hidden />
          </Tool>
          <Tool label="Rehacer (Ctrl+Y)" disabled={!s.redo} onClick={() => c().redo().run()}>
            <Redo2 aria-hidden />
          </Tool>
        </span>
      </div>
      {linking ? <LinkBar editor={editor} onClose={() => setLinking(false)} /> : null}
      <div className="max-h-[50dvh] overflow-y-auto">
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}

export default RichTextEditor;
