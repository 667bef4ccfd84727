export { messageOf } from '@/lib/error-message';
