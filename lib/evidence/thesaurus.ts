// The words customers write for what the policies name otherwise, per language: a kind of product
// for the category a policy is written for ("hoodie" – clothing, "fridge" – appliance), and the
// everyday word for the policy's own ("swapping" – exchange, "package" – parcel). Support vocabulary of
// each language in general, written from the documents' topics: a customer's word that no passage
// holds would otherwise count as a part of the question nothing covers, and the passage written for
// it would not be found. A word is replaced by the policy's words. An entry must not be a word the
// language's policies use (a word they use is searched as itself): lib/evidence/thesaurus.test.ts
// holds the entries to the documents under docs/policies/; a team whose own documents use an entry's
// word takes the entry out.

const group = (words: string, into: string): Record<string, string> => Object.fromEntries(words.split(" ").map((w) => [w, into]));

const EN: Record<string, string> = {
  ...group(
    "hoodie hoodies jacket jackets jeans shirt shirts tshirt tshirts sweater sweaters jumper jumpers coat coats trousers pants " +
      "shorts skirt skirts dress dresses socks hat hats scarf gloves",
    "clothing",
  ),
  ...group("fridge fridges refrigerator freezer washer oven stove cooker microwave", "appliance"),
  ...group("sofa sofas couch bookcase bookcases bookshelf shelf shelves wardrobe desk desks chair chairs table tables bed", "furniture"),
  ...group("earphones airpods headset headsets", "headphones"),
  ...group("antivirus licence license licences licenses", "software"),
  ...group("swapped swapping", "exchange"),
  ...group("package packages", "parcel"),
  ...group("cheaper", "lower price"),
  ...group("street zip zipcode postcode", "address"),
  ...group("christmas easter", "holiday"),
  ...group("wheelchair disabled blind", "assistance"),
  ...group("uk britain england", "united kingdom"),
  ...group("recieve recieved reciept", "receive"),
};

const ES: Record<string, string> = {
  ...group("camiseta camisetas sudadera sudaderas pantalón pantalones vestido vestidos zapatos zapatillas chaqueta abrigo falda", "ropa"),
  ...group("nevera frigorífico frigorifico lavadora secadora lavavajillas horno microondas", "electrodoméstico"),
  ...group("cascos", "auriculares"),
};

const DE: Record<string, string> = {
  ...group("rückerstattung rückerstattungen ruckerstattung", "erstattung"),
  ...group("zurückgeschickt zurückschicken zurückgesendet zurücksenden", "rücksendung"),
  ...group("kühlschrank waschmaschine trockner geschirrspüler herd", "großgerät"),
};

export const THESAURUS: Readonly<Record<string, Readonly<Record<string, string>>>> = { en: EN, es: ES, de: DE };

/** The words in the policies' own vocabulary for the language (each word replaced by its entry, if any). */
export function inPolicyWords(words: readonly string[], language: string): string[] {
  const entries = THESAURUS[language] ?? {};
  return [...new Set(words.flatMap((w) => (Object.hasOwn(entries, w) ? entries[w]! : w).split(" ")))];
}
