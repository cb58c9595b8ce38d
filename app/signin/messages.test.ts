import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, INVALID_CREDENTIALS_MESSAGE, messageForErrorParam } from "./messages";

describe("the sign-in page's words for next-auth's refusals", () => {
  it("tells a refused, a locked and a shed sign-in apart, and nothing more", () => {
    expect(messageForErrorParam("CredentialsSignin", "invalid_credentials")).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect(messageForErrorParam("CredentialsSignin", "locked")).toMatch(/Too many failed sign-ins/);
    expect(messageForErrorParam("CredentialsSignin", "busy")).toBe(BUSY_MESSAGE);
    expect(messageForErrorParam("CredentialsSignin", undefined)).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect(messageForErrorParam(undefined, "busy")).toBeUndefined();
  });
});
