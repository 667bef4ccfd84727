/**
 * Chat between the therapists of a patient file and the patient (issue 15). Shared by the server,
 * the web app and the companion.
 */

/** Longest message, in characters. */
export const CHAT_MESSAGE_MAX = 4000;
/** Messages per page of a conversation, by default and at most. */
export const CHAT_PAGE_DEFAULT = 30;
export const CHAT_PAGE_MAX = 100;
/** Conversations per page of the `/chats` list, at most. */
export const CHAT_LIST_PAGE_MAX = 50;
/** A message unread this long mails the recipient side, once per conversation per stretch of unread messages. */
export const CHAT_UNREAD_MAIL_AFTER_MINUTES = 15;
/** At most one typing notice relayed per sender and conversation in this window. */
export const CHAT_TYPING_MIN_INTERVAL_MS = 2000;

/** Who wrote a message: a member of the workspace (therapist) or the patient from their own account. */
export const CHAT_SENDER_KINDS = ['member', 'patient'] as const;
export type ChatSenderKind = (typeof CHAT_SENDER_KINDS)[number];

/** The `/chats` tabs of spec §2: unread and read conversations of active patients; inactive = paused or discharged. */
export const CHAT_TABS = ['unread', 'read', 'inactive'] as const;
export type ChatTab = (typeof CHAT_TABS)[number];

/** Websocket events of the chat beyond spec §7's three: the typing notice, both ways. */
export const CHAT_TYPING_EVENT = 'chat-typing';
