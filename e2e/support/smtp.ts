import { SMTPServer } from 'smtp-server';

export type TestSmtp = { url: string; received: () => number; close: () => Promise<void> };

/**
 * The SMTP server the e2e Diván sends through, on loopback: it takes every mail (they stay readable in
 * the dev outbox) except those to rebota.test, which it refuses for good (550), as a real server
 * refuses an unknown mailbox.
 */
export async function startTestSmtp(port: number): Promise<TestSmtp> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith('@rebota.test'))
        return cb(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
      cb();
    },
    onData(stream, _session, cb) {
      stream.resume();
      stream.on('end', () => {
        received++;
        cb();
      });
    },
  });
  await new Promise<void>((res) => server.listen(port, '127.0.0.1', res));
  return { url: `smtp://127.0.0.1:${port}`, received: () => received, close: () => new Promise<void>((res) => server.close(() => res())) };
}
