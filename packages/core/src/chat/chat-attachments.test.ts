import { describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES } from '../patients/patient.constants';
import {
  chatAttachmentProblem as attachmentProblem,
  chatBodyWithAttachment as bodyWithAttachment,
  chatRepeatsAttachment as repeatsAttachment,
} from './chat-attachments';

describe('attachmentProblem', () => {
  it('accepts the documents module types, whatever the case of the extension', () => {
    expect(attachmentProblem({ name: 'informe.PDF', size: 10 })).toBeNull();
    expect(attachmentProblem({ name: 'foto.jpeg', size: DOCUMENT_MAX_BYTES })).toBeNull();
  });
  it('refuses other types, files past the limit and empty files, in Spanish', () => {
    expect(attachmentProblem({ name: 'programa.exe', size: 10 })).toMatch(/^Tipo de archivo no válido/);
    expect(attachmentProblem({ name: 'sin-extension', size: 10 })).toMatch(/^Tipo de archivo no válido/);
    expect(attachmentProblem({ name: '.pdf', size: 10 })).toMatch(/^Tipo de archivo no válido/);
    expect(attachmentProblem({ name: 'grande.pdf', size: DOCUMENT_MAX_BYTES + 1 })).toBe('El archivo supera el tamaño máximo de 20 MB.');
    expect(attachmentProblem({ name: 'vacio.txt', size: 0 })).toBe('El archivo está vacío.');
  });
});

describe('bodyWithAttachment', () => {
  it('keeps what was typed, trimmed', () => expect(bodyWithAttachment('  Aquí lo tienes ', 'informe.pdf')).toBe('Aquí lo tienes'));
  it('names the file when nothing was typed', () => expect(bodyWithAttachment('  ', 'informe.pdf')).toBe('informe.pdf'));
  it('is empty with neither', () => expect(bodyWithAttachment('', null)).toBe(''));
});

describe('repeatsAttachment', () => {
  it('is true only for a text that is the attachment name', () => {
    expect(repeatsAttachment('informe.pdf', { name: 'informe.pdf' })).toBe(true);
    expect(repeatsAttachment('Aquí está informe.pdf', { name: 'informe.pdf' })).toBe(false);
    expect(repeatsAttachment('informe.pdf', null)).toBe(false);
  });
});
