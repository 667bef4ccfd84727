import { defineModule } from '../../platform/modules/define-module';
import { MediaLinks } from './learning-media';
import { LearningAdmin } from './learning-admin.service';
import { learningAdminRoutes } from './learning-admin.routes';
import { LearningPurchases } from './learning-purchase.service';
import { learningRoutes } from './learning.routes';
import { LearningService } from './learning.service';

/**
 * The training library (issue 29): Diván's videos sold one by one to therapists — the catalogue, the
 * video page with a preview the server enforces, purchases paid by a workspace's saved card with Diván's
 * invoice, progress, favourites — and the upload tool of Diván's staff, whose files a job transcodes.
 */
export const learningModule = defineModule({
  name: 'learning',
  needs: ['users', 'sales', 'workspaces'],
  build: ({ users, sales, workspaces }, p) => {
    const clock = p.clock ?? (() => new Date());
    const links = new MediaLinks(p.tokens.hashSecret);
    const learning = new LearningService({ db: p.db, users, links, clock });
    const purchases = new LearningPurchases({
      db: p.db,
      sales,
      users,
      membership: (wid, uid) => workspaces.resolveMembership(wid, uid),
      publicUrl: p.config.publicUrl,
      log: p.log,
      clock,
    });
    const admin = new LearningAdmin({
      db: p.db,
      storage: p.storage,
      jobs: p.jobs,
      images: p.publicImages,
      users,
      uploadToken: p.config.learningUploadToken ?? null,
      staffEmails: p.config.learningStaffEmails ?? [],
      log: p.log,
      clock,
    });
    return {
      provides: {},
      routes: (app) =>
        app
          .register(learningRoutes, { learning, purchases, links, storage: p.storage, publicUrl: p.config.publicUrl, clock })
          .register(learningAdminRoutes, { admin, purchases }),
      jobs: [admin.queue],
    };
  },
});
