import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "../contracts/audit-actions";
import { DEFAULT_NOTIFICATION_SETTINGS, describeNotificationSettings } from "../policy/notification-settings";
import { DEFAULT_SETTINGS } from "../policy/settings";
import { describeAuditEvent, type TDescribable } from "./describe-event";

const event = (over: Partial<TDescribable>): TDescribable => ({
  action: "ticket.created",
  actorType: "system",
  actorName: null,
  subjectType: "ticket",
  ticket: { number: 12 },
  inputs: {},
  ...over,
});
const say = (over: Partial<TDescribable>) => describeAuditEvent(event(over));

const PAT = "0f6a1c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const ADA = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const names = new Map([
  [PAT, "Pat Newcomer"],
  [ADA, "Ada Admin"],
]);
const byAda = { actorType: "user", actorId: ADA, actorName: null, names } as const;
const aboutPat = { subjectType: "user", subjectId: PAT, ticket: null } as const;
const refund = { amountCents: 7900, orderId: "ORD-1001", mode: "live" };

describe("describeAuditEvent", () => {
  it("says what happened to a policy document, naming its version, its author and a refusal's reason", () => {
    const doc = { ...byAda, subjectType: "document", subjectId: "return-policy-us", ticket: null } as const;
    expect(
      say({
        ...doc,
        action: "document.published",
        inputs: { docKey: "return-policy-us", version: 3, authorName: "Sam Specialist", effectiveAt: null },
      }),
    ).toBe("Ada Admin published return-policy-us@3, written by Sam Specialist.");
    expect(
      say({
        ...doc,
        action: "document.publish_refused",
        inputs: { docKey: "return-policy-us", version: 3, code: "author_cannot_publish", reason: "You wrote return-policy-us@3." },
      }),
    ).toBe("Ada Admin was refused publishing return-policy-us@3: You wrote return-policy-us@3.");
    expect(
      say({
        subjectType: "document",
        ticket: null,
        actorId: "document-scheduler",
        action: "document.retired",
        inputs: { docKey: "support-sla", versions: [1], why: "superseded" },
      }),
    ).toBe("The policy documents' schedule retired support-sla (version 1), superseded by a later version now in effect.");
  });

  it("says who did what to what, and why, with people by name", () => {
    const names = new Map([["u-2", "Sam Specialist"]]);
    expect(
      say({
        action: "approval.rejected",
        actorType: "user",
        actorName: "Riley Reviewer",
        inputs: { kind: "refund", note: "No photo yet." },
      }),
    ).toBe("Riley Reviewer rejected the refund on ticket #12: “No photo yet.”.");
    const assigned = {
      action: "ticket.assigned",
      actorType: "user",
      actorName: "Lee Lead",
      inputs: { assigneeId: "u-2", how: "assign" },
      names,
    };
    expect(say(assigned)).toBe("Lee Lead assigned ticket #12 to Sam Specialist.");
    const typedIn = { action: "ticket.created", actorType: "user", actorName: "Riley Reviewer", inputs: { source: "form" } };
    expect(say(typedIn)).toBe("Riley Reviewer entered a ticket in the new-ticket form.");
    const delivered = { action: "ticket.created", actorType: "api", inputs: { source: "api", externalId: "hd-7" } };
    expect(say(delivered)).toBe("The helpdesk (intake API) delivered a ticket (hd-7).");
    expect(say({ action: "run.stopped", actorType: "agent", inputs: { reason: "no_approved_evidence" } })).toMatch(
      /^The agent stopped its run on ticket #12: no approved policy covers this ticket \(no_approved_evidence\)\.$/i,
    );
  });

  it("names the actor from the names when the event carries only their id, and the workers by what they do", () => {
    expect(say({ action: "approval.rejected", ...byAda, inputs: { kind: "refund" } })).toBe("Ada Admin rejected the refund on ticket #12.");
    expect(
      say({
        action: "refund.executed",
        actorType: "system",
        actorId: "refund-worker",
        inputs: refund,
        currencies: new Map([["ORD-1001", "USD"]]),
      }),
    ).toBe("The refund worker refunded 79.00 USD on order ORD-1001 (ticket #12).");
    const autoApproval = {
      action: "approval.auto_approved",
      actorType: "system",
      actorId: "run-1",
      subjectType: "proposal",
      subjectId: "p-1",
    };
    expect(say({ ...autoApproval, inputs: { amountCents: 2500 }, currencies: new Map([["p-1", "EUR"]]) })).toBe(
      "The policy auto-approved a refund of 25.00 EUR on ticket #12, within the autonomy dial.",
    );
  });

  it("names the person every event about a person is about", () => {
    expect(
      say({ action: "user.deactivated", ...byAda, ...aboutPat, inputs: { sessionsEnded: 1, linksVoided: 0, ticketsUnassigned: 2 } }),
    ).toBe("Ada Admin deactivated Pat Newcomer, ending 1 session and unassigning 2 tickets.");
    expect(say({ action: "user.role_changed", ...byAda, ...aboutPat, inputs: { from: "REVIEWER", to: "SPECIALIST" } })).toBe(
      "Ada Admin changed Pat Newcomer’s role from reviewer to specialist.",
    );
    const bySelf = { actorType: "user", actorId: PAT, actorName: null, names } as const;
    expect(say({ action: "user.password_set", ...bySelf, ...aboutPat })).toBe("Pat Newcomer set their password with a link.");
    for (const action of AUDIT_ACTIONS.filter((a) => a.startsWith("user."))) {
      expect(say({ action, ...byAda, ...aboutPat, inputs: {} }), action).toContain("Pat Newcomer");
    }
    // Someone no longer known is not named by a guess, and never by their id.
    expect(say({ action: "user.reactivated", ...byAda, ...aboutPat, names: new Map() })).toBe(
      "Someone reactivated a person no longer known.",
    );
  });

  it("says what a settings change changed, from what to what, amounts in their currency", () => {
    const policy = {
      before: { "policy.dailyCapCents": 50_000, "agent.defaultPlanner": "rule" },
      after: { "policy.dailyCapCents": 75_050, "agent.defaultPlanner": "model" },
    };
    expect(say({ action: "settings.changed", ...byAda, subjectType: "settings", ticket: null, inputs: policy })).toBe(
      "Ada Admin changed the policy settings: daily cap on auto-approved refunds 500.00 USD → 750.50 USD; default planner rule → model.",
    );
    const before = describeNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS);
    const after = describeNotificationSettings({
      "notify.webhookUrl": "https://hooks.example.com/T0/B0/secret-path",
      "notify.webhookSecret": "s".repeat(32),
      "notify.reminderLeadMinutes": 30,
    });
    const sentence = say({ action: "settings.changed", ...byAda, subjectType: "settings", ticket: null, inputs: { before, after } });
    expect(sentence).toBe(
      "Ada Admin changed the notification settings: " +
        `webhook none → https://hooks.example.com (${after.webhook!.fingerprint}); ` +
        `signing secret none → set (${after.secret!.fingerprint}); reminder lead time 60 min → 30 min.`,
    );
    expect(sentence).not.toContain("secret-path");
  });

  it("has words for every setting, so a change never shows a key or a raw value", () => {
    for (const [key, before] of Object.entries(DEFAULT_SETTINGS)) {
      const after = typeof before === "number" ? before + 1 : "model";
      const sentence = say({
        action: "settings.changed",
        ...byAda,
        ticket: null,
        inputs: { before: { [key]: before }, after: { [key]: after } },
      });
      expect(sentence, key).not.toContain(key);
      expect(sentence, key).toContain(" → ");
      expect(sentence, key).not.toMatch(/[{}"]/);
    }
  });

  it("writes every amount with its currency", () => {
    expect(say({ action: "proposal.recorded", actorType: "agent", inputs: { amountCents: 7900, currency: "EUR" } })).toBe(
      "The agent recorded a refund proposal of 79.00 EUR on ticket #12.",
    );
    expect(say({ action: "approval.edited", ...byAda, inputs: { fromCents: 7900, toCents: 5000, currency: "GBP" } })).toBe(
      "Ada Admin lowered the refund on ticket #12 from 79.00 GBP to 50.00 GBP, replacing the request with one of its own digest.",
    );
    const usd = new Map([["ORD-1001", "USD"]]);
    expect(say({ action: "refund.executed", inputs: refund, currencies: usd })).toBe(
      "The system refunded 79.00 USD on order ORD-1001 (ticket #12).",
    );
    // An amount whose currency is not known says so rather than showing a bare number.
    expect(say({ action: "refund.executed", inputs: refund })).toContain("79.00 (currency not recorded)");
  });

  it("has words for every action, and still names one it does not know", () => {
    for (const action of AUDIT_ACTIONS) expect(say({ action }), action).not.toContain(`: ${action}`);
    expect(say({ action: "something.new", actorType: "api" })).toBe("The helpdesk (intake API): something.new.");
  });
});
