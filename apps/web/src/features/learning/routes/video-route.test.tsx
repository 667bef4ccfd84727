// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { LearningMedia } from '@divan/core';
import { renderScreen } from '@/test/render';
import { purchaseTexts } from '../components/purchase-panel';
import { previewNotice } from '../components/video-stage';
import { cardOf, enter, leave, stubRoutes, VID, videoOf, WID } from '../learning-test-kit';
import { VideoRoute } from './video-route';

beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  leave();
});

const VIDEO = `GET /learning/videos/${VID}`;
const MEDIA = `GET /learning/videos/${VID}/media`;
const BUY = `POST /workspaces/${WID}/learning/videos/${VID}/purchase`;
const preview = { url: 'https://app.test/api/v1/learning/media?token=preview', seconds: 30 };
const full: LearningMedia['full'] = {
  kind: 'file',
  url: 'https://app.test/api/v1/learning/media?token=full',
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
};
const open = (route = `/learn/video/${VID}`) =>
  renderScreen(
    <Routes>
      <Route path="/learn/video/:id" element={<VideoRoute />} />
    </Routes>,
    { route },
  );
const player = () => document.querySelector('video')!;

describe('/learn/video/:id', () => {
  it('not bought: the preview with its notice, the details, and the purchase form in focus when the preview ends', async () => {
    enter();
    const charge = {
      baseCents: 2479,
      vatCents: 0,
      totalCents: 2479,
      vatRate: 0,
      taxCase: 'reverse_charge' as const,
      legend: 'Inversión del sujeto pasivo',
    };
    const api = stubRoutes({
      [VIDEO]: [200, videoOf({ tags: ['apego', 'infancia'], related: [cardOf({ id: 'r1', title: 'Vínculos seguros' })], charge })],
      [MEDIA]: [200, { preview, full: null }],
    });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'El apego en la consulta' })).toBeTruthy();
    await waitFor(() => expect(player().getAttribute('src')).toBe(preview.url));
    expect(screen.getByRole('note').textContent).toBe(previewNotice(30));
    expect(previewNotice(30)).toBe('Vista previa de 30 s — compra el vídeo para verlo entero');
    expect(screen.getByText('Equipo de Diván')).toBeTruthy();
    expect(screen.getByRole('link', { name: '#infancia' }).getAttribute('href')).toBe('/learn/library?tag=infancia');
    expect(screen.getByRole('link', { name: 'Vínculos seguros' })).toBeTruthy();
    // Asked for the workspace «Continuar y pagar» charges: the price its billing data make.
    expect(api.of(VIDEO)[0]!.query).toEqual({ workspaceId: WID });
    expect(screen.getByTestId('learning-charge').textContent).toBe('24,79\u00a0€ sin IVA · Inversión del sujeto pasivo');

    fireEvent(player(), new Event('ended'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: purchaseTexts.title }));
  });

  it('without a preview: the card’s poster and the purchase form', async () => {
    enter();
    stubRoutes({ [VIDEO]: [200, videoOf({ previewSeconds: 0 })], [MEDIA]: [200, { preview: null, full: null }] });
    open();
    expect(await screen.findByText('Este vídeo no tiene vista previa: cómpralo para verlo entero.')).toBeTruthy();
    expect(document.querySelector('video')).toBeNull();
    expect(screen.getByRole('button', { name: 'Continuar y pagar' })).toBeTruthy();
  });

  it('bought: the full video resumes where it was left, and the buyer’s panel replaces the form', async () => {
    enter();
    stubRoutes({
      [VIDEO]: [
        200,
        videoOf({
          purchased: true,
          progress: { positionSeconds: 600, watchedSeconds: 580, completedAt: null, updatedAt: '2026-12-06T10:00:00Z' },
        }),
      ],
      [MEDIA]: [200, { preview, full }],
    });
    open();
    await waitFor(() => expect(player().getAttribute('src')).toBe(full.url));
    fireEvent(player(), new Event('loadedmetadata'));
    expect(player().currentTime).toBe(600);
    expect(screen.getByText('Ya es tuyo')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continuar y pagar' })).toBeNull();
  });

  it('after «Continuar y pagar» the page reads the video and its media again and starts the full video', async () => {
    enter();
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    let bought = false;
    const api = stubRoutes({
      [VIDEO]: () => [200, videoOf({ purchased: bought })],
      [MEDIA]: () => [200, { preview, full: bought ? full : null }],
      [BUY]: () => {
        bought = true;
        return [200, { status: 'purchased', purchase: { id: 'p1' } }];
      },
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Continuar y pagar' }));
    await waitFor(() => expect(player().getAttribute('src')).toBe(full.url));
    fireEvent(player(), new Event('loadedmetadata'));
    expect(play).toHaveBeenCalled();
    expect(api.count(VIDEO)).toBe(2);
    expect(api.count(MEDIA)).toBe(2);
  });

  it('a video that is not there (or no longer published) says so', async () => {
    enter();
    stubRoutes({ [VIDEO]: [404, { code: 'learning_content_not_found', message: 'Ese vídeo no existe o ya no está publicado.' }] });
    open();
    expect(await screen.findByRole('heading', { name: 'Este vídeo no está disponible' })).toBeTruthy();
    expect(screen.getByText('Ese vídeo no existe o ya no está publicado.')).toBeTruthy();
  });
});
