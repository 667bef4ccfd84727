// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LearningAdminVideo } from '@divan/core';
import { renderScreen } from '@/test/render';
import { cardOf, enter, leave, stubRoutes, VID } from '../learning-test-kit';
import { uploadTexts } from '../upload/upload-panel';
import { UploadRoute } from './upload-route';

beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const ACCESS = 'GET /learning/admin/access';
const LIST = 'GET /learning/admin/videos';
const CREATE = 'POST /learning/admin/videos';
const BEGIN = `POST /learning/admin/videos/${VID}/upload`;
const PIECE = `PUT /learning/admin/videos/${VID}/upload`;

const adminOf = (o: Partial<LearningAdminVideo> = {}): LearningAdminVideo => ({
  ...cardOf(),
  description: 'Cómo se muestra el apego.',
  vimeoUrl: null,
  status: 'draft',
  failure: null,
  hasFile: false,
  publishedAt: null,
  purchases: 0,
  createdAt: '2026-12-07T10:00:00Z',
  ...o,
});

describe('/learn/_upload', () => {
  it('is refused to whoever is not Diván’s staff', async () => {
    enter();
    stubRoutes({ [ACCESS]: [200, { staff: false, uploadConfigured: true }] });
    renderScreen(<UploadRoute />);
    expect(await screen.findByRole('heading', { name: 'La herramienta de subida es solo para el equipo de Diván' })).toBeTruthy();
    expect(screen.queryByLabelText('Token de subida')).toBeNull();
  });

  it('creates a video with the typed token, then sends its file in pieces from where the server is', async () => {
    enter();
    let received = 0;
    const size = 25;
    const api = stubRoutes({
      [ACCESS]: [200, { staff: true, uploadConfigured: true }],
      [LIST]: (_req, n) => [200, { items: n === 1 ? [] : [adminOf({ status: 'processing', hasFile: true })] }],
      [CREATE]: (req) => [201, adminOf(req.body as Partial<LearningAdminVideo>)],
      // A resumed upload: the server has 5 bytes already.
      [BEGIN]: () => [200, { size, received: (received ||= 5), chunkBytes: 10 }],
      [PIECE]: (req) => {
        received = Math.min(size, Number(req.query.offset) + (req.body as Blob).size);
        return [200, { size, received, chunkBytes: 10 }];
      },
    });
    const { user } = renderScreen(<UploadRoute />);
    await user.type(await screen.findByLabelText('Token de subida'), 'secreto');
    await user.click(screen.getByRole('button', { name: /Usar este token/ }));
    await user.click(await screen.findByRole('button', { name: /Nuevo vídeo/ }));
    expect(sessionStorage.getItem('divan.learning.upload-token')).toBe('secreto');

    await user.type(screen.getByRole('textbox', { name: 'Título' }), 'El apego en la consulta');
    await user.type(screen.getByRole('textbox', { name: 'Descripción' }), 'Cómo se muestra el apego.');
    await user.click(screen.getByRole('checkbox', { name: 'Habilidades del psicólogo' }));
    await user.type(screen.getByRole('textbox', { name: 'Etiquetas' }), 'Apego, primeras sesiones');
    await user.type(screen.getByRole('textbox', { name: 'Precio sin IVA' }), '24,79');
    expect(screen.getByTestId('price-with-vat').textContent).toBe('30,00\u00a0€ IVA incluido');
    await user.upload(screen.getByLabelText('Archivo de vídeo'), new File([new Uint8Array(size)], 'apego.mp4', { type: 'video/mp4' }));
    await user.click(screen.getByRole('button', { name: 'Guardar y subir' }));

    // The editor closes; the upload runs beside the list, its bar staying at 100 % once done.
    await waitFor(() => expect(screen.getByText(uploadTexts.done)).toBeTruthy());
    expect(screen.getByRole('progressbar', { name: 'Progreso de la subida' }).getAttribute('aria-valuenow')).toBe('100');
    await waitFor(() => expect(screen.getByRole('list', { name: 'Vídeos de la biblioteca' })).toBeTruthy());
    expect(within(screen.getByRole('list', { name: 'Vídeos de la biblioteca' })).getAllByText('Procesando…').length).toBeGreaterThan(0);
    expect(api.of(CREATE)[0]!.body).toEqual({
      title: 'El apego en la consulta',
      description: 'Cómo se muestra el apego.',
      colour: '#2F6F5E',
      vimeoUrl: null,
      categories: ['PSYCHOLOGIST_SKILLS'],
      tags: ['apego', 'primeras sesiones'],
      priceCents: 2479,
      previewSeconds: 60,
    });
    expect(api.of(BEGIN)[0]!.body).toEqual({ fileName: 'apego.mp4', size });
    // From the 5 bytes the server had, in its 10-byte pieces, each with the token and as raw bytes.
    const pieces = api.of(PIECE);
    expect(pieces.map((p) => [p.query.offset, (p.body as Blob).size])).toEqual([
      ['5', 10],
      ['15', 10],
    ]);
    for (const p of [...pieces, ...api.of(CREATE), ...api.of(BEGIN), ...api.of(LIST)]) expect(p.headers['X-Upload-Token']).toBe('secreto');
    expect(pieces.every((p) => p.headers['Content-Type'] === 'application/octet-stream')).toBe(true);
  });

  it('«Cancelar subida» stops after the piece in flight; «Continuar la subida» goes on from what the server has', async () => {
    enter();
    sessionStorage.setItem('divan.learning.upload-token', 'secreto');
    const size = 25;
    let received = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = stubRoutes({
      [ACCESS]: [200, { staff: true, uploadConfigured: true }],
      [LIST]: [200, { items: [adminOf()] }],
      [BEGIN]: () => [200, { size, received, chunkBytes: 10 }],
      [PIECE]: async (req, n) => {
        if (n === 1) await gate;
        received = Math.min(size, Number(req.query.offset) + (req.body as Blob).size);
        return [200, { size, received, chunkBytes: 10 }];
      },
    });
    const { user } = renderScreen(<UploadRoute />);
    await user.click(await screen.findByRole('button', { name: 'Editar «El apego en la consulta»' }));
    await user.upload(screen.getByLabelText('Archivo de vídeo'), new File([new Uint8Array(size)], 'apego.mp4', { type: 'video/mp4' }));
    await user.click(screen.getByRole('button', { name: 'Guardar y subir' }));
    await user.click(await screen.findByRole('button', { name: 'Cancelar subida' }));
    release();
    expect(await screen.findByText(uploadTexts.canceled)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Progreso de la subida' }).getAttribute('aria-valuenow')).toBe('40');
    expect(api.of(PIECE).map((p) => p.query.offset)).toEqual(['0']);

    await user.click(screen.getByRole('button', { name: 'Continuar la subida' }));
    expect(await screen.findByText(uploadTexts.done)).toBeTruthy();
    expect(api.of(PIECE).map((p) => p.query.offset)).toEqual(['0', '10', '20']);
    expect(api.count(BEGIN)).toBe(2);
    // Nothing typed changed: the video itself was not sent again.
    expect(api.count(`PATCH /learning/admin/videos/${VID}`)).toBe(0);
  });

  it('puts the contract’s messages next to their fields and asks nothing', async () => {
    enter();
    sessionStorage.setItem('divan.learning.upload-token', 'secreto');
    const api = stubRoutes({ [ACCESS]: [200, { staff: true, uploadConfigured: true }], [LIST]: [200, { items: [] }] });
    const { user } = renderScreen(<UploadRoute />);
    await user.click(await screen.findByRole('button', { name: /Nuevo vídeo/ }));
    await user.type(screen.getByRole('textbox', { name: 'Precio sin IVA' }), 'gratis');
    await user.clear(screen.getByRole('textbox', { name: 'Color de fondo' }));
    await user.type(screen.getByRole('textbox', { name: 'Color de fondo' }), 'verde');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Elige al menos una categoría')).toBeTruthy();
    expect(screen.getByText(/Color inválido/)).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Precio sin IVA' }).getAttribute('aria-invalid')).toBe('true');
    expect(api.count(CREATE)).toBe(0);
  });
});
