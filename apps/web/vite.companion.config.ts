import { publicBundleConfig } from './vite.public';

/** The patient's companion (companion.html → src/companion/, served for /p and /p/…) for production: a first screen within 100 KB of gzipped JS. */
export default publicBundleConfig('companion');
