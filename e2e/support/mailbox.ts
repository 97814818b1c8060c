import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

/** A real SMTP server in the test process: the app's mail goes over the wire, as in production. */
export interface Mailbox {
  url: string;
  /** Resolves with the next message sent to `to`. */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  const waiters: { to: string; resolve: (m: ParsedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = [mail.to]
            .flat()
            .flatMap((a) => a?.value ?? [])
            .map((a) => a.address?.toLowerCase());
          const w = waiters.findIndex((x) => to.includes(x.to));
          if (w >= 0) waiters.splice(w, 1)[0]!.resolve(mail);
          else received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    next(to, timeoutMs = 15_000) {
      const addr = to.toLowerCase();
      const i = received.findIndex((m) =>
        [m.to]
          .flat()
          .flatMap((a) => a?.value ?? [])
          .some((a) => a.address?.toLowerCase() === addr),
      );
      if (i >= 0) return Promise.resolve(received.splice(i, 1)[0]!);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ to: addr, resolve: (m) => (clearTimeout(t), resolve(m)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
