import { defineModule } from '../../platform/modules/define-module';
import { tasksRoutes } from './tasks.routes';
import { TasksService } from './tasks.service';

/** The therapist's tasks, each on a patient's file. */
export const tasksModule = defineModule({
  name: 'tasks',
  needs: ['patients'],
  build: ({ patients }, p) => {
    const tasks = new TasksService(p.db, patients);
    return { provides: {}, routes: (app) => app.register(tasksRoutes, { tasks }) };
  },
});
