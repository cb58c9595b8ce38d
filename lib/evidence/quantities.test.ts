// Quantities as drafts and passages write them: what is read as a number, with which unit, and when
// two of them say the same.
import { describe, expect, it } from "vitest";
import { normalQuantity, quantitiesIn, quantitySupports } from "./quantities";

const read = (text: string) => quantitiesIn(text).map((q) => `${normalQuantity(q)} <${q.written}>`);
const agree = (source: string, claim: string) => quantitySupports(quantitiesIn(source)[0]!, quantitiesIn(claim)[0]!);

describe("quantitiesIn", () => {
  it.each([
    ["within sixty days of delivery [return-policy-us@2]", ["60 days <sixty days>"]],
    ["within a year of delivery", ["1 year <a year>"]],
    ["a double refund within 30 days", ["2 times <double>", "30 days <30 days>"]],
    ["twice the amount, half the fee, triple points", ["2 times <twice>", "0.5 times <half>", "3 times <triple>"]],
    [
      "half an hour, a day and a half, two and a half weeks",
      ["0.5 hours <half an hour>", "1.5 days <a day and a half>", "2.5 weeks <two and a half weeks>"],
    ],
    ["one hundred and twenty dollars, twenty-one days", ["120 <one hundred and twenty>", "21 days <twenty-one days>"]],
    [
      "a fortnight, 5 business days, 30 calendar days, the 30-day window",
      ["1 fortnight <a fortnight>", "5 business days <5 business days>", "30 days <30 calendar days>", "30 days <30-day>"],
    ],
    ["15%, fifty per cent", ["15 percent <15%>", "50 percent <fifty per cent>"]],
    [
      "dentro de sesenta días hábiles, treinta y un días, una semana, mil doscientos",
      ["60 business days <sesenta días hábiles>", "31 days <treinta y un días>", "1 week <una semana>", "1200 <mil doscientos>"],
    ],
    [
      "quatre-vingt-dix jours, vingt et un jours, un an, soixante et onze",
      ["90 days <quatre-vingt-dix jours>", "21 days <vingt et un jours>", "1 year <un an>", "71 <soixante et onze>"],
    ],
    [
      "einundzwanzig Tage, dreißig Werktage, zweihundertfünfzig, ein Jahr",
      ["21 days <einundzwanzig Tage>", "30 business days <dreißig Werktage>", "250 <zweihundertfünfzig>", "1 year <ein Jahr>"],
    ],
    ["1,200.00 USD, 79 USD", ["1200 <1,200.00>", "79 <79>"]],
    [
      "cinco por ciento, dix pour cent, 15 prozent",
      ["5 percent <cinco por ciento>", "10 percent <dix pour cent>", "15 percent <15 prozent>"],
    ],
    [
      "dos días y medio, deux jours et demie, a full year, 5 working days",
      ["2.5 days <dos días y medio>", "2.5 days <deux jours et demie>", "1 year <a full year>", "5 business days <5 working days>"],
    ],
    [
      "dreiunddreißig Tage, hundert Tage, zweitausend, tausendzweihundert",
      ["33 days <dreiunddreißig Tage>", "100 days <hundert Tage>", "2000 <zweitausend>", "1200 <tausendzweihundert>"],
    ],
    [
      "quatre-vingts jours, vingt-quatre heures, soixante-dix jours",
      ["80 days <quatre-vingts jours>", "24 hours <vingt-quatre heures>", "70 days <soixante-dix jours>"],
    ],
    [
      "thirty and forty days, two three days, twenty a day",
      ["30 <thirty>", "40 days <forty days>", "2 <two>", "3 days <three days>", "20 <twenty>", "1 day <a day>"],
    ],
    ["half a day, half the fee, two thousand and five", ["0.5 days <half a day>", "0.5 times <half>", "2005 <two thousand and five>"]],
    ["30, days later; a day, and a half", ["30 <30>", "1 day <a day>", "0.5 times <half>"]],
    ["dos veces, deux fois, zweimal, a double-sided page", ["2 times <dos veces>", "2 times <deux fois>", "2 times <zweimal>"]],
    ["50 per, cent; vierundvierzig Tage; neunundneunzig", ["50 <50>", "44 days <vierundvierzig Tage>", "99 <neunundneunzig>"]],
  ])("reads %j", (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it.each([
    "Once approved, one of our team will reply.",
    "No one else can see it; it is a refund, not a voucher.",
    "It takes a few days, a couple of weeks at most.",
    "Please double-check the address.",
    "Nous vous répondrons dès que possible; le sept est un chiffre.",
    "constructor toString valueOf",
    "Im Jahrhundert davor war alles anders.",
    "El siglo pasado, sin más.",
  ])("reads no quantity in %j", (text) => {
    expect(read(text)).toEqual([]);
  });
});

describe("quantitySupports", () => {
  it("agrees on the same quantity in another unit of its family", () => {
    expect(agree("within 30 days", "within a month")).toBe(true);
    expect(agree("within 30 days", "within thirty days")).toBe(true);
    expect(agree("within 14 days", "within a fortnight")).toBe(true);
    expect(agree("within 24 hours", "within a day")).toBe(true);
    expect(agree("within 12 months", "within a year")).toBe(true);
    expect(agree("within 28 days", "within a month")).toBe(true);
    expect(agree("within 31 days", "within a month")).toBe(true);
    expect(agree("within 365 days", "within a year")).toBe(true);
    expect(agree("50% of the fee", "half the fee")).toBe(true);
    expect(agree("twice the amount", "double the amount")).toBe(true);
  });

  it("refuses another quantity, another family, or a bare number for a quantity with a unit", () => {
    expect(agree("within 30 days", "within a year")).toBe(false);
    expect(agree("within 30 days", "within sixty days")).toBe(false);
    expect(agree("within 32 days", "within a month")).toBe(false);
    expect(agree("within 27 days", "within a month")).toBe(false);
    expect(agree("50% of the fee", "half a day")).toBe(false);
    expect(agree("within 30 days", "within 30 hours")).toBe(false);
    expect(agree("within 5 business days", "within 5 days")).toBe(false);
    expect(agree("within 7 days", "within 5 business days")).toBe(false);
    expect(agree("refund of 79 USD", "within 79 days")).toBe(false);
    expect(agree("refund of 2 USD", "a double refund")).toBe(false);
  });

  it("lets a number without a unit agree with the same number in any unit, as digits always have", () => {
    expect(agree("within 30 days", "the 30")).toBe(true);
    expect(agree("within 30 days", "thirty")).toBe(true);
  });
});
