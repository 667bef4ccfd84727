import type { AnalyticsFilter } from '../api/analytics-api';

/** What every tab takes: whose and which figures, whether amounts are hidden, and how a card opens its rows. */
export type TabProps = {
  workspaceId: string;
  filter: AnalyticsFilter;
  hidden: boolean;
  open: (card: string, title: string) => void;
};
