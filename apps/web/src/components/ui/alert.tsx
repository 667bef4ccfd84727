import type { ComponentProps } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@/lib/cn';

const alertVariants = cva('rounded-lg border px-4 py-3 text-sm leading-relaxed [&_a]:font-medium [&_a]:underline', {
  variants: {
    variant: {
      info: 'border-primary/25 bg-accent text-accent-foreground',
      error: 'border-destructive/30 bg-destructive/8 text-destructive',
      success: 'border-success/30 bg-success/8 text-foreground',
    },
  },
  defaultVariants: { variant: 'info' },
});

export function Alert({ className, variant, ...props }: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return <div role={variant === 'error' ? 'alert' : 'status'} className={cn(alertVariants({ variant }), className)} {...props} />;
}
