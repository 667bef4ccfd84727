export * from './chat.constants';
export * from './chat.cursor';
export * from './chat.contracts';
export * from './chat-office-hours';
export * from './chat-attachments';
