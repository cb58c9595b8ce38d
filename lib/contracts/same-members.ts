// A compile-time check that two unions of string literals hold the same members. Used where a list in
// code mirrors an enum of the database: `const _: TSameMembers<TOurs, PrismaEnum> = true` stops the
// typecheck the moment either side gains or loses a value.
export type TSameMembers<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
