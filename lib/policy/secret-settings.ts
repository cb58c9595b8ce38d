// Secrets kept among the settings (the notification webhook's URL, which carries its own token, and
// its signing secret) are stored encrypted: AES-256-GCM under a key kept outside the database
// (SETTINGS_KEY, else a key file generated in DATA_DIR, as AUTH_SECRET is). A copy of the database,
// a backup or a reader of the Setting table then holds nothing that posts or forges notifications.
//
//   "enc:v1:<iv>.<tag>.<ciphertext>"   (base64url each; the setting's key is the AAD, so a value
//                                       cannot be moved to another setting)
//
// A value stored before encryption (plain text) is still read as it is, and is written encrypted by
// the next save of the notification settings (update-notification-settings.ts). An empty value
// means "not set" and stays empty (WEBHOOK_CONFIGURED_SQL reads it).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { settingsKey } from "../env";
import { logger } from "../observability/logger";

const PREFIX = "enc:v1:";

/** The AES key, derived from the configured secret (any text of 32 characters or more). */
export function settingsCipherKey(secret: string = settingsKey()): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "countersign", "settings encryption v1", 32));
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** A setting's value as stored: encrypted, bound to its key. "" stays "". */
export function sealSetting(key: string, value: string, cipherKey: Buffer = settingsCipherKey()): string {
  if (value === "") return "";
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", cipherKey, iv);
  cipher.setAAD(Buffer.from(key));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return `${PREFIX}${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${body.toString("base64url")}`;
}

/**
 * A stored value as text: decrypted, or as it is when it was stored in plain text. A value this key
 * cannot open (SETTINGS_KEY changed or lost) reads as "" – not set – and says so in the log: the admin
 * then sets it again, rather than every page that reads the settings failing.
 */
export function openSetting(key: string, stored: string, cipherKey: Buffer = settingsCipherKey()): string {
  if (!isSealed(stored)) return stored;
  try {
    const [iv, tag, body] = stored.slice(PREFIX.length).split(".") as [string, string, string];
    const decipher = createDecipheriv("aes-256-gcm", cipherKey, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(key));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    logger.warn(`The stored setting ${key} cannot be decrypted with this SETTINGS_KEY: it reads as not set until it is saved again.`);
    return "";
  }
}
