// The tasks contracts, loaded on first use (task-input.ts): they bring Zod, which the dashboard does not
// need to paint (apps/web/docs/bundle-budget.md).
export { createTaskBody, updateTaskBody } from '@divan/core';
