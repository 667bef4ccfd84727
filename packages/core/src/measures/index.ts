export * from './measure';
export * from './instruments';
export * from './scoring';
