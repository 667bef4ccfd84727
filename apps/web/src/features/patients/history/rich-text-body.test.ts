import { describe, expect, it } from 'vitest';
import { withoutLeadingTitle } from './rich-text-body';

describe('history entry body', () => {
  it('drops a leading heading that repeats the title (imported Word files)', () => {
    expect(withoutLeadingTitle('<h1>Historia clínica — Ana</h1><p>Texto</p>', 'Historia clínica — Ana')).toBe('<p>Texto</p>');
    expect(withoutLeadingTitle('<h2><strong>Informe</strong></h2><p>x</p>', 'Informe')).toBe('<p>x</p>');
  });
  it('keeps everything else', () => {
    expect(withoutLeadingTitle('<h1>Otro título</h1><p>x</p>', 'Informe')).toBe('<h1>Otro título</h1><p>x</p>');
    expect(withoutLeadingTitle('<p>Informe</p>', 'Informe')).toBe('<p>Informe</p>');
  });
});
