import { useLocationRoute } from '../public-kit/nav';
import { parseRoute, type Route } from './router';

export { navigate } from '../public-kit/nav';

/** The current route, following links and the browser's back and forward. */
export const useRoute = (): Route => useLocationRoute(parseRoute);
