// The process's one logger: JSON lines on standard output (pino), each carrying the ids of the work it
// belongs to (context.ts) and, while a span is recorded, its trace and span ids. LOG_LEVEL sets the
// threshold (info by default).
//
// Secrets never reach a line: the fields that hold them are replaced wherever they sit in a logged
// object, up to three levels down – passwords, secrets, tokens, keys, signatures, and the cookie,
// authorization and signature headers of a logged request or response. Nothing here logs bodies or
// headers on its own; the list is the net under whoever logs an object that happens to hold one.
import { trace } from "@opentelemetry/api";
import pino, { type Logger } from "pino";
import { currentContext } from "./context";

export type { Logger } from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Fields that hold a secret, by name, wherever they sit in a logged object. */
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "passwordHash",
  "secret",
  "clientSecret",
  "token",
  "accessToken",
  "refreshToken",
  "sessionToken",
  "apiKey",
  "privateKey",
  "signingKey",
  "bundleKey",
  "signature",
  "cookie",
  "cookies",
  "authorization",
  // Settings, should someone log the environment or a slice of it (DATABASE_URL may hold a password).
  "AUTH_SECRET",
  "INTAKE_SECRET",
  "INTAKE_SECRETS",
  "INTAKE_BUNDLE_KEY",
  "SETTINGS_KEY",
  "AUDIT_SIGNING_KEY",
  "LLM_API_KEY",
  "DATABASE_URL",
  "MIGRATION_DATABASE_URL",
];

/** Headers that carry a credential, in a logged request's or response's `headers`. */
const SECRET_HEADERS = [
  "cookie",
  "set-cookie",
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "x-countersign-signature",
  "webhook-signature",
];

export const REDACTED = "[redacted]";

export function redactPaths(): string[] {
  const paths: string[] = [];
  for (const prefix of ["", "*.", "*.*."]) for (const field of SECRET_FIELDS) paths.push(`${prefix}${field}`);
  for (const holder of ["headers", "*.headers", "*.*.headers"]) for (const header of SECRET_HEADERS) paths.push(`${holder}["${header}"]`);
  return paths;
}

function level(): string {
  const configured = process.env.LOG_LEVEL?.trim().toLowerCase();
  // env.ts refuses a bad LOG_LEVEL at start-up with one line; a process that never validates its
  // settings still logs, at the default.
  return configured && (LOG_LEVELS as readonly string[]).includes(configured) ? configured : "info";
}

/** The context's ids and the active span's, merged into every line. */
function mixin(): Record<string, string> {
  const fields: Record<string, string> = { ...currentContext() } as Record<string, string>;
  const span = trace.getActiveSpan()?.spanContext();
  if (span && trace.isSpanContextValid(span)) {
    fields.traceId = span.traceId;
    fields.spanId = span.spanId;
  }
  return fields;
}

/** A logger with the app's settings, writing to `destination` (standard output by default), at LOG_LEVEL unless told. */
export function createLogger(destination?: pino.DestinationStream, threshold: string = level()): Logger {
  const options: pino.LoggerOptions = {
    level: threshold,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin,
    redact: { paths: redactPaths(), censor: REDACTED },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  };
  return destination ? pino(options, destination) : pino(options);
}

// One logger per process, on globalThis for the same reason as the context (several bundles).
const g = globalThis as unknown as { __countersignLogger?: Logger };
export const logger: Logger = (g.__countersignLogger ??= createLogger());

/** For the functions that take a `log(line)` option: their lines, at info, through the logger. */
export const logLine = (line: string): void => logger.info(line);

/** An error as the fields a line needs: pino serialises `err` with its type, message and stack. */
export function errorFields(error: unknown): { err: unknown } {
  return { err: error instanceof Error ? error : new Error(String(error)) };
}
