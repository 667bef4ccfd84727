import { publicBundleConfig } from './vite.public';

/**
 * The public booking pages (booking.html → src/public-booking/) for production, within the page's 80 KB
 * budget (decision 0021). The dev server (vite.config.ts) serves the same pages on React; e2e tests this build.
 */
export default publicBundleConfig('booking');
