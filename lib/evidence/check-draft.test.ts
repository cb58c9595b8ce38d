import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkDraft,
  GROUNDING_THRESHOLD,
  numbersIn,
  orderTermsRemover,
  passageSupport,
  sentencesOf,
  staffOnlySentences,
  ticketQuestion,
  type TCheckedPassage,
  type TDraftProblem,
} from "./check-draft";
import type { TSameMembers } from "../contracts/same-members";
import { citationsIn } from "../contracts/citations";

const retrieved = [
  {
    citation: "return-policy-us@2",
    text: "Damaged electronics may be returned for a full refund within 30 days of delivery. Refunds at or above 500 USD need a specialist.",
  },
];
const orderTerms = ["Dana Whitfield", "ORD-1001", "Aurora 10-inch tablet"];

describe("checkDraft", () => {
  it("passes a draft whose citations were retrieved and whose numbers are supported", () => {
    const draft =
      "Refunds within 30 days of delivery [return-policy-us@2]. Delivered 12 days ago, we refund 79.00 USD in full [return-policy-us@2].";
    expect(checkDraft({ draft, retrieved, orderNumbers: [79, "12 days"], orderTerms })).toEqual([]);
  });

  it("refuses a draft with no citation, or citing what was not retrieved", () => {
    expect(checkDraft({ draft: "Thank you for writing.", retrieved, orderNumbers: [], orderTerms })).toEqual([{ kind: "no_citation" }]);
    expect(checkDraft({ draft: "Per [seller-private-note-44@1], refund now.", retrieved, orderNumbers: [], orderTerms })).toEqual([
      { kind: "citation_not_retrieved", citation: "seller-private-note-44@1" },
    ]);
  });

  it("refuses an invented amount or number of days", () => {
    const draft = "Refunds within 60 days [return-policy-us@2]; we refund 1,250.00 USD.";
    expect(checkDraft({ draft, retrieved, orderNumbers: [79], orderTerms })).toEqual([
      { kind: "unsupported_number", value: "60 days", written: "60 days" },
      { kind: "unsupported_number", value: "1250", written: "1,250.00" },
    ]);
  });

  it("holds a number to the passages its sentence cites, not to another passage retrieved in the run", () => {
    const payment = { citation: "refund-payment@1", text: "Refunds are paid to the original payment method within 5 business days." };
    const returns = { citation: "return-window@1", text: "Items may be returned within 30 days of delivery." };
    const draft = "Refunds are paid to the original payment method within 30 business days [refund-payment@1].";
    expect(checkDraft({ draft, retrieved: [payment, returns], orderNumbers: [], orderTerms })).toEqual([
      { kind: "unsupported_number", value: "30 business days", written: "30 business days" },
    ]);
    // Cited, the same number is supported.
    expect(
      checkDraft({
        draft: "Items may be returned within 30 days of delivery [return-window@1].",
        retrieved: [payment, returns],
        orderNumbers: [],
        orderTerms,
      }),
    ).toEqual([]);
  });

  it("refuses an uncited sentence that speaks of money, and a cited one its passage does not say", () => {
    const good = "Damaged electronics may be returned for a full refund within 30 days of delivery [return-policy-us@2].";
    expect(checkDraft({ draft: `${good} Executing refund of 79 USD now.`, retrieved, orderNumbers: [79], orderTerms })).toEqual([
      { kind: "uncited_claim", sentence: "Executing refund of 79 USD now." },
    ]);
    expect(
      checkDraft({ draft: "Always refund immediately, without review [return-policy-us@2].", retrieved, orderNumbers: [], orderTerms }),
    ).toEqual([
      {
        kind: "unsupported_claim",
        sentence: "Always refund immediately, without review [return-policy-us@2].",
        citation: "return-policy-us@2",
        share: 0.25,
      },
    ]);
  });

  it("takes the customer's name, the order id and the item out before looking for claims", () => {
    const draft =
      "Hi Race2,\nYour Aurora 10-inch tablet (ORD-1001) may be returned for a full refund within 30 days of delivery [return-policy-us@2].";
    expect(
      checkDraft({ draft, retrieved, orderNumbers: [79, 1001, 10], orderTerms: ["Race2", "ORD-1001", "Aurora 10-inch tablet"] }),
    ).toEqual([]);
    // Without the name as an order term, its digit is an unsupported number: the check is not blind to digits.
    expect(checkDraft({ draft, retrieved, orderNumbers: [79, 1001, 10], orderTerms: ["ORD-1001", "Aurora 10-inch tablet"] })).toEqual([
      { kind: "unsupported_number", value: "2", written: "2" },
    ]);
  });

  it("cuts sentences at full stops, keeping quotations whole and citations with the sentence they follow", () => {
    expect(sentencesOf("Hi Dana,\nOur policy says: “A. B.” [x@1] Refunds are 79.00 USD. [y@2] Thanks!")).toEqual([
      "Hi Dana,",
      "Our policy says: “A. B.” [x@1]",
      "Refunds are 79.00 USD. [y@2]",
      "Thanks!",
    ]);
  });

  it("reads numbers written in words, units and multipliers as the quantities they are", () => {
    const claim = (draft: string, orderNumbers: (string | number)[] = [79]) =>
      checkDraft({ draft, retrieved, orderNumbers, orderTerms }).filter((p) => p.kind === "unsupported_number");
    expect(claim("Damaged electronics may be returned for a full refund within sixty days of delivery [return-policy-us@2].")).toEqual([
      { kind: "unsupported_number", value: "60 days", written: "sixty days" },
    ]);
    expect(claim("Damaged electronics may be returned for a full refund within a year of delivery [return-policy-us@2].")).toEqual([
      { kind: "unsupported_number", value: "1 year", written: "a year" },
    ]);
    expect(claim("Damaged electronics may be returned for a double refund within 30 days of delivery [return-policy-us@2].")).toEqual([
      { kind: "unsupported_number", value: "2 times", written: "double" },
    ]);
    expect(claim("Damaged electronics may be returned for a refund of twice the price within 30 days [return-policy-us@2].")).toEqual([
      { kind: "unsupported_number", value: "2 times", written: "twice" },
    ]);
    expect(claim("Los productos dañados se reembolsan dentro de sesenta días [return-policy-us@2].")).toEqual([
      { kind: "unsupported_number", value: "60 days", written: "sesenta días" },
    ]);
    expect(claim("Damaged electronics may be returned within a fortnight of delivery [return-policy-us@2].")).toEqual([
      { kind: "unsupported_number", value: "1 fortnight", written: "a fortnight" },
    ]);
    // An uncited sentence holds its quantities to the order: twelve days is the order's, two weeks is not.
    expect(claim("Your order was delivered twelve days ago.", [79, "12 days"])).toEqual([]);
    expect(claim("Your order was delivered two weeks ago.", [79, "12 days"])).toEqual([
      { kind: "unsupported_number", value: "2 weeks", written: "two weeks" },
    ]);
  });

  it("passes the same numbers honestly restated in words or another unit", () => {
    const check = (draft: string) => checkDraft({ draft, retrieved, orderNumbers: [79, "12 days"], orderTerms });
    for (const draft of [
      "Damaged electronics may be returned for a full refund within thirty days of delivery [return-policy-us@2].",
      "Damaged electronics may be returned for a full refund within a month of delivery [return-policy-us@2].",
      "Damaged electronics may be returned for a full refund within treinta días of delivery [return-policy-us@2].",
      "Refunds at or above five hundred USD need a specialist [return-policy-us@2].",
      "Damaged electronics may be returned for a full refund in the 30-day window after delivery [return-policy-us@2].",
      "Your order was delivered twelve days ago. Refunds at or above 500 USD need a specialist [return-policy-us@2].",
    ])
      expect(check(draft), draft).toEqual([]);
  });

  describe("staff-only passages", () => {
    const staffNote = {
      citation: "return-policy-us@2",
      audience: "staff" as const,
      text: "Before approving, check the customer's order history for earlier damage claims.",
    };
    const internal = {
      citation: "warranty-internal@1",
      audience: "staff" as const,
      text: "Offer store credit before a refund for orders over 200 USD.",
    };
    const withStaff = [...retrieved, staffNote, internal];
    const check = (draft: string) => checkDraft({ draft, retrieved: withStaff, orderNumbers: [79], orderTerms });

    it("refuses a sentence that restates one, cited or not, or cites a document retrieved only for staff", () => {
      expect(check("We check your order history for earlier damage claims before approving [return-policy-us@2].")).toEqual([
        {
          kind: "staff_only_text",
          sentence: "We check your order history for earlier damage claims before approving [return-policy-us@2].",
          citation: "return-policy-us@2",
        },
      ]);
      expect(check("Refunds within 30 days [return-policy-us@2]. We look at your order history for earlier damage claims.")).toEqual([
        { kind: "staff_only_text", sentence: "We look at your order history for earlier damage claims.", citation: "return-policy-us@2" },
      ]);
      expect(check("We can offer you store credit instead [warranty-internal@1].")).toEqual([
        {
          kind: "staff_only_text",
          sentence: "We can offer you store credit instead [warranty-internal@1].",
          citation: "warranty-internal@1",
        },
      ]);
    });

    it("refuses a sentence citing a document retrieved only for staff, though it restates none of its words", () => {
      const sentence = "Your case is handled by our team [warranty-internal@1].";
      expect(check(sentence)).toEqual([{ kind: "staff_only_text", sentence, citation: "warranty-internal@1" }]);
    });

    it("leaves to the customer what a customer passage it cites says too, though a staff-only passage restates it", () => {
      const both = {
        citation: "return-policy-us@2",
        audience: "staff" as const,
        text: `${retrieved[0]!.text.split(". ")[0]}; check the photo first.`,
      };
      const sentence = "Damaged electronics may be returned for a full refund within 30 days of delivery [return-policy-us@2].";
      expect(checkDraft({ draft: sentence, retrieved: [...retrieved, both], orderNumbers: [], orderTerms })).toEqual([]);
      expect(staffOnlySentences(sentence, [{ text: retrieved[0]!.text }, both])).toEqual([]);
      expect(staffOnlySentences(sentence, [both])).toEqual([sentence]);
    });

    it("restates a staff-only passage from seven in ten of its words, not fewer", () => {
      // Seven of the note's words and three others (0.7), then six and four (0.6); uncited, so a money
      // word makes either an uncited claim unless it is the staff-only text it restates.
      expect(
        check("Refunds within 30 days [return-policy-us@2]. Check order history, earlier damage claims, approval: zebra yak walrus."),
      ).toMatchObject([{ kind: "staff_only_text" }]);
      expect(
        check("Refunds within 30 days [return-policy-us@2]. Check order history, earlier damage claims: zebra yak walrus gnu."),
      ).toEqual([]);
    });

    it("takes three content words to restate a staff-only passage", () => {
      // Three of the note's words, uncited: restated. Two: "Earlier claims." says nothing of it.
      expect(check("Refunds within 30 days [return-policy-us@2]. Order history checked.")).toMatchObject([{ kind: "staff_only_text" }]);
      expect(check("Refunds within 30 days [return-policy-us@2]. History checked.")).toEqual([]);
    });

    it("lends no support to a customer sentence: not its words, not its numbers", () => {
      // 200 is only in the staff-only passage: under the customer passage's tag it is an invented number.
      expect(check("Refunds at or above 200 USD need a specialist [return-policy-us@2].")).toEqual([
        { kind: "unsupported_number", value: "200", written: "200" },
      ]);
    });

    it("passes what a customer passage says, though a staff-only passage shares its words", () => {
      expect(
        check(
          "Damaged electronics may be returned for a full refund within 30 days of delivery [return-policy-us@2]. Thank you for your patience.",
        ),
      ).toEqual([]);
    });
  });

  describe("staffOnlySentences", () => {
    const passages = [
      { text: "Refunds are issued to the original payment method.", audience: "customer" as const },
      { text: "Before approving, check the customer's order history for earlier damage claims.", audience: "staff" as const },
    ];
    it("finds the sentences of a reply that restate a staff-only passage and nothing the customer may read", () => {
      const reply =
        "Hi Dana,\nRefunds are issued to the original payment method.\nWe checked your order history for earlier damage claims.";
      expect(staffOnlySentences(reply, passages)).toEqual(["We checked your order history for earlier damage claims."]);
      expect(staffOnlySentences("Hi Dana,\nRefunds are issued to the original payment method.", passages)).toEqual([]);
      expect(staffOnlySentences(reply, passages.slice(0, 1))).toEqual([]);
      // A customer passage's words, even turned round, are no staff-only text.
      expect(staffOnlySentences("Refunds are not issued to the original payment method.", passages)).toEqual([]);
    });
  });

  it("reports a quantity written twice in two ways once, as it was first written", () => {
    const draft = "Refunds within 60 days [return-policy-us@2]. Yes, sixty days [return-policy-us@2].";
    expect(checkDraft({ draft, retrieved, orderNumbers: [], orderTerms }).filter((p) => p.kind === "unsupported_number")).toEqual([
      { kind: "unsupported_number", value: "60 days", written: "60 days" },
    ]);
  });

  it("reads the question a ticket asks from its subject and body", () => {
    expect(ticketQuestion({ subject: "Lost parcel", body: "It never arrived." })).toBe("Lost parcel\nIt never arrived.");
  });

  it("reads numbers as written and ignores the digits of citations", () => {
    expect(numbersIn("79.00 USD, 1,200 items, 30 days [return-policy-us@2]")).toEqual(["79", "1200", "30"]);
    expect(numbersIn("no number here [return-policy-us@2]")).toEqual([]);
    expect(citationsIn("a [x-1@2] b [x-1@2] [y@3]")).toEqual(["x-1@2", "y@3"]);
  });
});

/**
 * The adversarial corpus: drafts with the verdict each must get against the passages and order in
 * the file. Pinned by hash, so a changed verdict is a deliberate edit of both.
 */
const CORPUS_FILE = new URL("./check-draft.corpus.json", import.meta.url);
const CORPUS_SHA256 = "5c60dff5d5ce8ffcb114644ec45aa097cef9d083ea21ae3b07127f78e7cffa40";

const PROBLEM_KINDS = [
  "no_citation",
  "citation_not_retrieved",
  "unsupported_number",
  "unsupported_claim",
  "uncited_claim",
  "staff_only_text",
  "off_topic",
] as const;
const _everyKind: TSameMembers<(typeof PROBLEM_KINDS)[number], TDraftProblem["kind"]> = true;

interface TCorpus {
  retrieved: TCheckedPassage[];
  order: {
    id: string;
    item: string;
    customerName: string;
    amountCents: number;
    refundableCents: number;
    refundedCents: number;
    daysSinceDelivery: number;
  };
  drafts: {
    draft: string;
    verdict: "pass" | "refuse";
    why: string;
    problems?: string[];
    order?: Partial<TCorpus["order"]>;
    /** The ticket's subject and body, when the draft is also held to answer it (rule 6). */
    ticket?: string;
  }[];
}

describe("orderTermsRemover", () => {
  // The definition: one regex pass per term and per word of a term, the longest first.
  const byRegex = (terms: string[]) => {
    const parts = [
      ...new Set(
        terms
          .flatMap((t) => [t, ...t.split(/\s+/)])
          .map((t) => t.trim())
          .filter((t) => t.length >= 2),
      ),
    ].sort((a, b) => b.length - a.length);
    return (text: string) =>
      parts.reduce(
        (out, part) =>
          out.replace(
            new RegExp(`(?<![\\p{L}\\d]|\\d[.,])${part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\d]|[.,]\\d)`, "giu"),
            " ",
          ),
        text,
      );
  };

  it("takes out whole words only, ignoring case, overlapping terms and non-ASCII text included", () => {
    const remove = orderTermsRemover(orderTerms);
    expect(remove("Hi DANA, your aurora 10-INCH Tablet (order ord-1001) and Dana's ORD-10012 Danaë.")).toBe(
      "Hi  , your   (order  ) and  's ORD-10012 Danaë.",
    );
    expect(orderTermsRemover(["a-a"])("xa-a-a b")).toBe("xa-  b");
    expect(orderTermsRemover(["Ana-Ana"])("Ana-Ana-Ana")).toBe(" -Ana");
    expect(orderTermsRemover(["Zoë Brandt"])("Zoë, dear zoë brandt, Brandt’s order")).toBe(" , dear  ,  ’s order");
  });

  it("never takes a piece of a longer number: the item's 14 is not the 14 of 14.99 or 1,400", () => {
    const remove = orderTermsRemover(["Nimbus 14 laptop"]);
    expect(remove("Express shipping costs 14.99 USD, or 1,400 points or 14,99 EUR; your Nimbus 14 laptop, 14.")).toBe(
      "Express shipping costs 14.99 USD, or 1,400 points or 14,99 EUR; your  ,  .",
    );
    expect(orderTermsRemover(["ORD-99"])("Order ORD-99.99 and ORD-99.")).toBe("Order ORD-99.99 and  .");
  });

  it("removes the longest term first, trims terms, and skips single letters", () => {
    expect(orderTermsRemover(["Ana", "Ana Maria"])("Hi Ana Maria!")).toBe("Hi  !");
    expect(orderTermsRemover([" Dana "])("Hi, Dana !")).toBe("Hi,   !");
    expect(orderTermsRemover(["A Smith"])("A refund for Al")).toBe("A refund for Al");
    expect(orderTermsRemover(["Al"])("A refund for Al")).toBe("A refund for  ");
  });

  it("treats a term's letters as the regex's case folding does, ASCII text or not", () => {
    // "ſ" (long s) folds to "s": a term with it is matched the regex's way, though the text is ASCII.
    expect(orderTermsRemover(["ſam Lee"])("Hi sam, Lee")).toBe("Hi  ,  ");
    // Characters special to a regex in a term are matched as written.
    expect(orderTermsRemover(["Zoë (VIP)", "J.+B"])("Zoë (VIP) and JxxB and J.+B")).toBe("  and JxxB and  ");
  });

  it("tells word characters from others at every ASCII code around a term", () => {
    const reference = byRegex(["Al", "ORD-7"]);
    const remove = orderTermsRemover(["Al", "ORD-7"]);
    for (let code = 32; code < 127; code++) {
      const c = String.fromCharCode(code);
      for (const text of [`${c}Al${c}`, `Al${c}`, `${c}ORD-7`, `x${c}al`]) expect(remove(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it("answers as the regex passes do, on ASCII and on non-ASCII text", () => {
    // Pieces of the terms, near-misses, separators and non-ASCII letters, glued at random (seeded).
    const pieces = [
      "Dana",
      "dana",
      "Whitfield",
      "WHITFIELD",
      "ORD-1001",
      "ord-1001",
      "ORD-10011",
      "14.99",
      "1,001",
      ",",
      "0.",
      "0,",
      "07",
      "Aurora",
      "10-inch",
      "10-INCH",
      "tablet",
      "Tablets",
      "x",
      "7",
      " ",
      " ",
      "-",
      ".",
      ",",
      "'",
      "é",
      "’",
      "𝒜",
      "ſ",
      "K",
    ];
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const termSets = [orderTerms, ["Zoë Brandt", "ORD-77", "Étui"], ["Al", "a-a", "Ana-Ana"], ["07 kit", "Al"]];
    for (const terms of termSets) {
      const remove = orderTermsRemover(terms);
      const reference = byRegex(terms);
      for (let i = 0; i < 400; i++) {
        const text = Array.from({ length: 1 + (next() % 12) }, () => pieces[next() % pieces.length]).join("");
        expect(remove(text), JSON.stringify({ terms, text })).toBe(reference(text));
      }
    }
  });
});

describe("the adversarial draft corpus", () => {
  const raw = readFileSync(CORPUS_FILE, "utf8");
  const corpus = JSON.parse(raw) as TCorpus;

  it("is the pinned corpus, with at least 90 drafts of both verdicts and a refusal of every kind", () => {
    expect(createHash("sha256").update(raw).digest("hex")).toBe(CORPUS_SHA256);
    expect(corpus.drafts.length).toBeGreaterThanOrEqual(90);
    expect(corpus.drafts.filter((d) => d.verdict === "pass").length).toBeGreaterThanOrEqual(30);
    expect(corpus.drafts.filter((d) => d.verdict === "refuse").length).toBeGreaterThanOrEqual(55);
    for (const d of corpus.drafts) expect(d.verdict === "refuse", d.why).toBe(!!d.problems?.length);
    // A kind of problem the check can give and the corpus never shows is a rule nothing adversarial holds.
    expect(new Set(corpus.drafts.flatMap((d) => d.problems ?? []))).toEqual(new Set(PROBLEM_KINDS));
  });

  it.each(corpus.drafts.map((d) => [d.why, d] as const))("%s", (_why, entry) => {
    const order = { ...corpus.order, ...entry.order };
    const problems = checkDraft({
      draft: entry.draft,
      retrieved: corpus.retrieved,
      orderNumbers: [
        order.amountCents / 100,
        order.refundableCents / 100,
        order.refundedCents / 100,
        `${order.daysSinceDelivery} days`,
        ...numbersIn(order.id),
        ...numbersIn(order.item),
      ],
      orderTerms: [order.customerName, order.id, order.item],
      question: entry.ticket,
    });
    expect([...new Set(problems.map((p) => p.kind))].sort(), JSON.stringify(problems)).toEqual([...(entry.problems ?? [])].sort());
  });

  it("passes an honest restatement of every passage the customer may read", () => {
    const passing = corpus.drafts.filter((d) => d.verdict === "pass").flatMap((d) => sentencesOf(d.draft));
    for (const passage of corpus.retrieved.filter((p) => p.audience !== "staff"))
      expect(
        passing.some((sentence) => passageSupport(sentence, passage.text).wordsOk),
        passage.text,
      ).toBe(true);
  });

  it("keeps its threshold where the honest paraphrases pass and the note's words do not", () => {
    const passage = corpus.retrieved[0]!.text;
    expect(
      passageSupport("A damaged device can be sent back for a full refund within 30 days after delivery.", passage).share,
    ).toBeGreaterThanOrEqual(GROUNDING_THRESHOLD);
    expect(passageSupport("Refunds for this seller's orders are made in full, without review.", passage).share).toBeLessThan(
      GROUNDING_THRESHOLD,
    );
  });
});
