import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

/** The channel notified when notifications or invitations are queued (the deliveries' trigger, members/invitations.ts): the workers look. */
export const OUTBOX_CHANNEL = "mutua_outbox";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Extra headers (a notification's List-Unsubscribe). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Sends and never throws: for notices whose cause is done and committed whatever the mail
 * server says. A failure is logged (without the text, which may hold a link).
 */
export async function sendBestEffort(mailer: Mailer, mail: Mail): Promise<void> {
  try {
    await mailer.send(mail);
  } catch (e) {
    console.error(`mail "${mail.subject}" not sent: ${(e as Error).message}`);
  }
}

/**
 * Real delivery through any SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.org). A send
 * ends within a few minutes whatever the server does (nodemailer waits up to 10 minutes for a
 * silent socket by default): the notification worker's claim on a message must outlast its send.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.headers ? { headers: mail.headers } : {}) });
    },
  };
}

/**
 * Without SMTP, every message is written to <dataDir>/outbox as an .eml file and its text is
 * logged, so someone running the server locally can still follow a reset link.
 */
/**
 * Writes each mail to a file in `dir`. `showText` prints its text in the log too: for the demo,
 * whose links are part of trying it out. Elsewhere the log names the file only: a service log is
 * read by more people than the mailbox, and its mails hold live reset and invitation links.
 */
export function outboxMailer(dir: string, from: string, log: (m: string) => void, showText = false): Mailer {
  return {
    async send(mail) {
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`);
      const extra = Object.entries(mail.headers ?? {})
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      const eml = `From: ${from}\r\nTo: ${mail.to}\r\nSubject: ${mail.subject}\r\n${extra}Content-Type: text/plain; charset=utf-8\r\n\r\n${mail.text.replace(/\n/g, "\r\n")}\r\n`;
      fs.writeFileSync(file, eml, { mode: 0o600 });
      log(showText ? `mail to ${mail.to} written to ${file}:\n${mail.text}` : `mail to ${mail.to} written to ${file}`);
    },
  };
}

/** The mailer the settings name: SMTP_URL's server, else the outbox folder in DATA_DIR. */
export function configuredMailer(
  s: { smtpUrl?: string; mailFrom: string; dataDir: string },
  log: (m: string) => void,
  opts: { showText?: boolean } = {},
): Mailer {
  return s.smtpUrl ? smtpMailer(s.smtpUrl, s.mailFrom) : outboxMailer(path.join(s.dataDir, "outbox"), s.mailFrom, log, opts.showText);
}
