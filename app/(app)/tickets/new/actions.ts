"use server";
// The new-ticket form's action. A ticket typed into the app is classified and signed by the built-in
// intake bundle (lib/intake/create-ticket.ts), exactly like one the helpdesk delivers unsigned by an
// outside classifier would be; the person who typed it is recorded as the actor.
import { redirect } from "next/navigation";
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { authedAction } from "@/lib/auth/authed";
import { createTicket } from "@/lib/intake/create-ticket";

// The same limits as the intake API (lib/intake/receive-intake.ts), with messages for a person.
const ZNewTicketForm = z.object({
  subject: plainText(z.string().trim().min(1, "Enter a subject.").max(300, "Keep the subject under 300 characters."), {
    label: "The subject",
  }),
  message: plainText(z.string().trim().min(1, "Enter the customer's message.").max(20_000, "Keep the message under 20,000 characters."), {
    multiline: true,
    label: "The message",
  }),
  customerEmail: z.string().trim().pipe(z.email("Enter the customer's email address, like name@example.com.")),
  // The pattern refuses every control character with the field's own message.
  orderRef: z
    .string()
    .trim()
    .max(64, "An order number has at most 64 characters.")
    .regex(/^[A-Za-z0-9._#-]*$/, "Use the order number as printed, like ORD-1001.")
    .optional()
    .transform((v) => v || null),
});

export const createTicketAction = authedAction(
  { area: "newTicket", input: ZNewTicketForm },
  async ({ input, user }): Promise<{ ticketId: string }> => {
    const ticket = await createTicket(
      { subject: input.subject, body: input.message, customerEmail: input.customerEmail, orderRef: input.orderRef, source: "form" },
      { type: "user", id: user.id },
    );
    // The ticket page shows the admission result: admitted, or bypassed with its reason.
    redirect(`/tickets/${ticket.id}`);
  },
);
