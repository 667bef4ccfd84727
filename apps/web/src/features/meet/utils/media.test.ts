import { describe, expect, it } from 'vitest';
import { mediaProblem } from './media';

const refused = (name: string) => Object.assign(new Error('x'), { name });

describe('why the browser gave no camera or microphone, in Spanish', () => {
  it('tells a refusal (the user or the browser said no) from a missing or busy device', () => {
    expect(mediaProblem(refused('NotAllowedError'))).toMatchObject({
      kind: 'denied',
      message: expect.stringMatching(/^Tu navegador no permite que Diván use la cámara ni el micrófono\. Dale permiso/),
    });
    expect(mediaProblem(refused('SecurityError')).kind).toBe('denied');
    expect(mediaProblem(refused('NotFoundError'))).toMatchObject({
      kind: 'missing',
      message: expect.stringMatching(/^No encontramos cámara ni micrófono/),
    });
    expect(mediaProblem(refused('OverconstrainedError')).kind).toBe('missing');
    expect(mediaProblem(refused('NotReadableError'))).toMatchObject({
      kind: 'busy',
      message: expect.stringMatching(/ocupados por otra aplicación/),
    });
    expect(mediaProblem(refused('unsupported')).kind).toBe('unsupported');
    expect(mediaProblem('algo raro')).toMatchObject({
      kind: 'other',
      message: 'No hemos podido encender la cámara ni el micrófono. Pulsa «Reintentar».',
    });
  });
});
