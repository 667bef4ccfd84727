/** Business constants of spec §9 that both server and web obey. */
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 90;
export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
export const CHALLENGE_COOLDOWN_MS = 60_000;
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60_000;
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
export const UPDATE_POLL_MS = 30_000;
export const UPDATE_RELOAD_DELAY_MS = 30_000;
export const SOCKET_PING_TIMEOUT_MS = 30_000;
export const SOCKET_HEARTBEAT_MS = 31_000;
export const SOCKET_RECONNECT_DELAY_MS = 1_000;
export const SOCKET_MAX_PER_USER = 10;
export const TOAST_DURATION_MS = 4_000;
export const TOAST_VISIBLE = 3;
export const QUERY_RETRY = 3;
export const QUERY_GC_MS = 5 * 60_000;
export const queryRetryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);
/** Whether asking again may answer otherwise (no network, a timeout, a rate limit, the server's fault): a 4xx says the same again. */
export const retryMayHelp = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;
export const USER_AGENT_MAX = 500;
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Where users write for help, plan changes and anything the app cannot do for them yet. */
export const SUPPORT_EMAIL = 'soporte@divan.app';
