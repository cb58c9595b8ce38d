// Replies by email through SMTP (`nodemailer`), threaded to the customer's newest message: In-Reply-To
// names it and References the thread's messages, so the customer's mail program shows the reply under what they wrote. The
// Message-ID is derived from the delivery's id, the same on every attempt: a mailbox that receives a
// retried message twice can tell it is one.
import nodemailer from "nodemailer";
import { DELIVERY_TIMEOUT_MS, type TChannel, type TOutgoingReply } from "./channel";

export interface TEmailConfig {
  smtpUrl: string;
  from: string;
  timeoutMs?: number;
}

const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? "countersign.invalid";

export function replySubject(reply: TOutgoingReply): string {
  const subject = reply.thread?.subject ?? reply.ticket.subject;
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}

export function emailChannel(config: TEmailConfig): TChannel {
  const timeout = config.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const transport = nodemailer.createTransport(config.smtpUrl, {
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  } as Record<string, number>);
  return {
    name: "email",
    async send(reply) {
      const inReplyTo = reply.thread?.channel === "email" ? reply.thread.messageId : null;
      const info = await transport.sendMail({
        from: config.from,
        to: reply.ticket.customerEmail,
        subject: replySubject(reply),
        text: reply.body,
        messageId: `<${reply.deliveryId}@${domainOf(config.from)}>`,
        ...(inReplyTo ? { inReplyTo, references: [...(reply.thread?.references ?? [inReplyTo])] } : {}),
      });
      return info.messageId ?? null;
    },
  };
}
