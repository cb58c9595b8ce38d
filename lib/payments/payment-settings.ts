// The payment settings: which provider executes approved refunds, how Stripe is reached and how its
// events are verified, and how long a refund may stay unfinished before the reconciliation asks.
// Stored as Setting rows beside the notification settings (the secrets encrypted the same way,
// lib/policy/secret-settings.ts), each falling back to its environment variable, then to the demo's
// default: no setting at all is `ledger-only`, today's behaviour.
import { db as defaultDb, type Db, type DbTx } from "../db";
import { env } from "../env";
import { openSetting } from "../policy/secret-settings";
import { PAYMENT_PROVIDERS, type TPaymentProvider } from "../contracts/reason-codes";
import { LEDGER_ONLY_PROVIDER, type TRefundProvider } from "./refund-provider";
import { stripeProvider } from "./stripe-provider";
import { shopifyProvider } from "./shopify-provider";

export const PAYMENT_SETTING_KEYS = {
  provider: "payments.provider",
  stripeSecretKey: "payments.stripeSecretKey",
  stripeWebhookSecret: "payments.stripeWebhookSecret",
  stripeApiUrl: "payments.stripeApiUrl",
  reconcileAfterSeconds: "payments.reconcileAfterSeconds",
} as const;

/** The settings stored encrypted. */
const SECRET_KEYS: readonly string[] = [PAYMENT_SETTING_KEYS.stripeSecretKey, PAYMENT_SETTING_KEYS.stripeWebhookSecret];

export interface TPaymentSettings {
  provider: TPaymentProvider;
  stripe: { secretKey: string | null; webhookSecret: string | null; apiUrl: string | null };
  /** The shop the order source reads (SHOPIFY_*): where `shopify` refunds are made. */
  shopify: { shopUrl: string | null; accessToken: string | null; apiVersion: string };
  /** A refund not final after this long is asked about by the reconciliation (and one left requested is retried). */
  reconcileAfterMs: number;
}

const DEFAULT_RECONCILE_AFTER_SECONDS = 120;

export async function loadPaymentSettings(client: Db | DbTx = defaultDb()): Promise<TPaymentSettings> {
  const rows = await client.setting.findMany({ where: { key: { in: Object.values(PAYMENT_SETTING_KEYS) } } });
  const stored = new Map(
    rows.map((r) => [r.key, typeof r.value === "string" && SECRET_KEYS.includes(r.key) ? openSetting(r.key, r.value) : r.value]),
  );
  const text = (key: string, fallback: string | undefined) => {
    const value = stored.get(key);
    return typeof value === "string" && value !== "" ? value : (fallback ?? null);
  };
  const e = env();
  const provider = text(PAYMENT_SETTING_KEYS.provider, e.PAYMENTS_PROVIDER) ?? "ledger-only";
  if (!(PAYMENT_PROVIDERS as readonly string[]).includes(provider)) throw new Error(`payments.provider: unknown provider ${provider}`);
  const after = Number(stored.get(PAYMENT_SETTING_KEYS.reconcileAfterSeconds) ?? DEFAULT_RECONCILE_AFTER_SECONDS);
  return {
    provider: provider as TPaymentProvider,
    stripe: {
      secretKey: text(PAYMENT_SETTING_KEYS.stripeSecretKey, e.STRIPE_SECRET_KEY),
      webhookSecret: text(PAYMENT_SETTING_KEYS.stripeWebhookSecret, e.STRIPE_WEBHOOK_SECRET),
      apiUrl: text(PAYMENT_SETTING_KEYS.stripeApiUrl, e.STRIPE_API_URL),
    },
    shopify: { shopUrl: e.SHOPIFY_SHOP_URL ?? null, accessToken: e.SHOPIFY_ACCESS_TOKEN ?? null, apiVersion: e.SHOPIFY_API_VERSION },
    reconcileAfterMs: (Number.isFinite(after) && after >= 0 ? after : DEFAULT_RECONCILE_AFTER_SECONDS) * 1000,
  };
}

/** The provider the settings name. Stripe without a key, or a shop without its address and token, is a configuration error, said at once. */
export function refundProviderFor(settings: TPaymentSettings): TRefundProvider {
  if (settings.provider === "ledger-only") return LEDGER_ONLY_PROVIDER;
  if (settings.provider === "shopify") {
    const { shopUrl, accessToken, apiVersion } = settings.shopify;
    if (!shopUrl || !accessToken) throw new Error("payments.provider is shopify but SHOPIFY_SHOP_URL or SHOPIFY_ACCESS_TOKEN is not set");
    return shopifyProvider({ shopUrl, accessToken, apiVersion });
  }
  if (!settings.stripe.secretKey) throw new Error("payments.provider is stripe but no Stripe secret key is set (STRIPE_SECRET_KEY)");
  return stripeProvider({ secretKey: settings.stripe.secretKey, apiUrl: settings.stripe.apiUrl });
}

/** The provider in force on this database. */
export async function loadRefundProvider(client: Db | DbTx = defaultDb()): Promise<TRefundProvider> {
  return refundProviderFor(await loadPaymentSettings(client));
}
