import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names. No tailwind-merge: it costs 8 KB gzipped on the sign-in page, so components are
 * written so a caller's classes never compete with the base ones for the same property.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
