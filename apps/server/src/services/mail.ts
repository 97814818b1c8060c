import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

export interface Mail {
  to: string;
  subject: string;
  text: string;
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

/** Real delivery through any SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.org). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/**
 * Without SMTP, every message is written to <dataDir>/outbox as an .eml file and its text is
 * logged, so someone running the server locally can still follow a reset link.
 */
export function outboxMailer(dir: string, from: string, log: (m: string) => void): Mailer {
  return {
    async send(mail) {
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`);
      const eml = `From: ${from}\r\nTo: ${mail.to}\r\nSubject: ${mail.subject}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${mail.text.replace(/\n/g, "\r\n")}\r\n`;
      fs.writeFileSync(file, eml, { mode: 0o600 });
      log(`mail to ${mail.to} written to ${file}:\n${mail.text}`);
    },
  };
}
