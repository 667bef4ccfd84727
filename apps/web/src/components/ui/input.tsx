import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** Shared look of text controls; height and font size are left to each control so callers can set them. */
export const inputBase =
  'flex w-full rounded-md border border-input bg-card px-3 text-foreground shadow-xs transition-colors placeholder:text-muted-foreground/80 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring focus-visible:border-ring disabled:cursor-not-allowed disabled:opacity-60 read-only:bg-muted read-only:text-muted-foreground aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive';

export const inputClass = cn(inputBase, 'text-[0.9375rem]');

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(inputClass, 'h-10', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(inputClass, 'min-h-28 py-2 leading-relaxed', className)} {...props} />;
}
