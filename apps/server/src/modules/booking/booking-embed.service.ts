import type { BookingEmbed } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { bookingEmbedRepository } from './booking-embed.repository';

/** An origin as CSP may carry it: scheme, host, optional port; nothing that could end or add a directive. */
const SAFE_ORIGIN = /^https?:\/\/[A-Za-z0-9.[\]:-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Embedding the public booking pages on the therapist's own website (spec §1: the plan decides,
 * `canEmbedPublicServices`). The workspace lists the origins that may frame its pages; the page's
 * `frame-ancestors` names them only while the plan allows it, so a plan that lapses stops the embed
 * without anyone editing the list.
 */
export class BookingEmbedService {
  constructor(private readonly d: { db: Db; workspaces: WorkspacesService }) {}

  async get(workspaceId: string): Promise<BookingEmbed> {
    const [origins, features] = await Promise.all([this.origins(workspaceId), this.d.workspaces.featuresOf(workspaceId)]);
    return { allowedOrigins: origins, embeddingAllowed: features.canEmbedPublicServices };
  }

  async put(workspaceId: string, allowedOrigins: string[]): Promise<BookingEmbed> {
    if (!(await this.d.workspaces.featuresOf(workspaceId)).canEmbedPublicServices)
      throw new AppError('public_service_embedding_not_allowed');
    const origins = [...new Set(allowedOrigins)];
    await bookingEmbedRepository(this.d.db).put(workspaceId, origins);
    return { allowedOrigins: origins, embeddingAllowed: true };
  }

  /**
   * The origins that may frame the public page at `path` (`/v1/reservations/<workspaceId>/…`), besides
   * Diván's own: the workspace's list while its plan allows embedding; none for the manage page
   * (`/v1/reservations/manage/<token>`, a visitor's own booking), an unknown workspace or any doubt.
   */
  async frameAncestors(path: string): Promise<string[]> {
    const first = path.split('/')[3] ?? '';
    if (!UUID.test(first)) return [];
    try {
      const embed = await this.get(first);
      return embed.embeddingAllowed ? embed.allowedOrigins.filter((o) => SAFE_ORIGIN.test(o)) : [];
    } catch {
      return [];
    }
  }

  private async origins(workspaceId: string): Promise<string[]> {
    return (await bookingEmbedRepository(this.d.db).origins(workspaceId)) ?? [];
  }
}
