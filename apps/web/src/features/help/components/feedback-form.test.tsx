// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { feedbackMessages } from '@divan/core';
import { hasUnsavedChanges } from '@/lib/unsaved-changes';
import { renderScreen, signIn, stubServer } from '@/test/render';
import { FeedbackForm } from './feedback-form';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const box = () => screen.getByRole('textbox', { name: 'Tu comentario' }) as HTMLTextAreaElement;

describe('FeedbackForm', () => {
  it('refuses a comment under 10 characters in Spanish, before any request, and counts what was typed', async () => {
    const server = stubServer();
    const { user } = renderScreen(<FeedbackForm />, { route: '/settings/help' });
    await user.type(box(), '  Hola  ');
    expect(screen.getByText('4 / 5000')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByRole('alert')).textContent).toBe(feedbackMessages.tooShort);
    expect(box().getAttribute('aria-invalid')).toBe('true');
    expect(server).not.toHaveBeenCalled();
  });

  it('sends the comment with the page, then clears the form and has nothing left to lose', async () => {
    signIn();
    const server = stubServer(201, { id: '6f1c1f43-5d5a-4c39-9a57-3c3a1d8f3b8e', createdAt: '2026-12-03T08:00:00.000Z' });
    const { user } = renderScreen(<FeedbackForm />, { route: '/settings/help' });
    await user.type(box(), 'Me gustaría exportar la agenda');
    expect(hasUnsavedChanges()).toBe(true);
    // Ctrl + Enter sends it too.
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(box().value).toBe(''));
    expect(hasUnsavedChanges()).toBe(false);
    const [url, init] = server.mock.calls[0]!;
    expect(String(url)).toBe('/api/v1/me/feedback');
    expect(JSON.parse(String(init!.body))).toEqual({ message: 'Me gustaría exportar la agenda', page: '/settings/help' });
  });

  it('shows the server’s refusal in place (too many in an hour) and keeps the text', async () => {
    signIn();
    stubServer(429, { code: 'too_many_requests', message: feedbackMessages.tooMany });
    const { user } = renderScreen(<FeedbackForm />, { route: '/settings/help' });
    await user.type(box(), 'Un comentario más de la cuenta');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByRole('alert')).textContent).toBe(feedbackMessages.tooMany);
    expect(box().value).toBe('Un comentario más de la cuenta');
  });
});
