import { Controller, useFormContext } from 'react-hook-form';
import { LEARNING_CATEGORIES, LEARNING_PREVIEW_MAX_SECONDS, LEARNING_TAGS_MAX, LEARNING_VAT_PERCENT } from '@divan/core';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { formatCurrency } from '@/lib/format';
import { cardColour, categoryLabel } from '../utils/format';
import { priceWithVatOf, type VideoFormValues } from './video-form-model';

/** The video's own fields (title to Vimeo URL); the icon and the file are the editor's, outside the form state. */
export function VideoFields() {
  const { register, control, watch, formState } = useFormContext<VideoFormValues>();
  const errors = formState.errors;
  const withVat = priceWithVatOf(watch('price'));
  return (
    <div className="grid gap-5">
      <Field label="Título" error={errors.title?.message}>
        <Input autoComplete="off" {...register('title')} />
      </Field>
      <Field label="Descripción" error={errors.description?.message}>
        <Textarea rows={6} {...register('description')} />
      </Field>
      <fieldset className="grid gap-2" aria-describedby={errors.categories ? 'video-categories-error' : undefined}>
        <legend className="mb-1 text-sm font-medium">Categorías</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {LEARNING_CATEGORIES.map((c) => (
            <label
              key={c}
              className="flex cursor-pointer items-center gap-2.5 rounded-lg border bg-card px-3 py-2.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
            >
              <input type="checkbox" value={c} className="size-4 accent-[var(--color-primary)]" {...register('categories')} />
              {categoryLabel(c)}
            </label>
          ))}
        </div>
        {errors.categories?.message ? (
          <p id="video-categories-error" role="alert" className="text-[0.8125rem] font-medium text-destructive">
            {errors.categories.message}
          </p>
        ) : null}
      </fieldset>
      <Field label="Etiquetas" error={errors.tags?.message} hint={`Separadas por comas, hasta ${LEARNING_TAGS_MAX}: ansiedad, duelo, TCC`}>
        <Input autoComplete="off" {...register('tags')} />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Precio sin IVA"
          error={errors.price?.message}
          hint={`En euros; se cobra con el IVA (${LEARNING_VAT_PERCENT} %) sumado`}
          aside={
            <span className="text-[0.8125rem] tabular-nums text-muted-foreground" aria-live="polite" data-testid="price-with-vat">
              {withVat === null ? 'IVA incluido: —' : `${formatCurrency(withVat)} IVA incluido`}
            </span>
          }
        >
          <Input inputMode="decimal" autoComplete="off" placeholder="0,00" {...register('price')} />
        </Field>
        <Field
          label="Segundos de vista previa"
          error={errors.previewSeconds?.message}
          hint={`0 desactiva la vista previa; como mucho ${LEARNING_PREVIEW_MAX_SECONDS}`}
        >
          <Input inputMode="numeric" autoComplete="off" {...register('previewSeconds')} />
        </Field>
      </div>
      <Controller
        control={control}
        name="colour"
        render={({ field }) => (
          <div className="flex items-start gap-2">
            <Field className="flex-1" label="Color de fondo" error={errors.colour?.message} hint="Hexadecimal de 6 cifras, como #2F6F5E">
              <Input
                ref={field.ref}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
              />
            </Field>
            <input
              type="color"
              aria-label="Elegir el color de fondo"
              value={cardColour(field.value).toLowerCase()}
              onChange={(e) => field.onChange(e.target.value.toUpperCase())}
              className="mt-7 h-10 w-12 shrink-0 cursor-pointer rounded-md border bg-card p-1"
            />
          </div>
        )}
      />
      <Field
        label="URL del vídeo en Vimeo"
        error={errors.vimeoUrl?.message}
        hint="Opcional si subes el archivo: https://vimeo.com/123456789 o https://player.vimeo.com/video/123456789"
      >
        <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} {...register('vimeoUrl')} />
      </Field>
    </div>
  );
}
