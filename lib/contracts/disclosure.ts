// The line that tells a customer an automated assistant drafted the reply (EU AI Act art. 50: people
// are told when they deal with an AI system). Added only to replies the agent drafted; a reply a person
// wrote from nothing carries none. Each delivered message records whether it carried it.
export const DISCLOSURE_LOCALES = ["en", "de", "fr", "es", "it", "nl"] as const;
export type TDisclosureLocale = (typeof DISCLOSURE_LOCALES)[number];

const LINES = {
  en: { line: (who: string) => `This reply was drafted with the help of an automated assistant and reviewed by ${who}.`, team: "our support team" },
  de: {
    line: (who: string) => `Diese Antwort wurde mit Hilfe eines automatisierten Assistenten verfasst und von ${who} geprüft.`,
    team: "unserem Support-Team",
  },
  fr: {
    line: (who: string) => `Cette réponse a été rédigée avec l'aide d'un assistant automatisé et relue par ${who}.`,
    team: "notre équipe d'assistance",
  },
  es: {
    line: (who: string) => `Esta respuesta se redactó con la ayuda de un asistente automatizado y la revisó ${who}.`,
    team: "nuestro equipo de soporte",
  },
  it: {
    line: (who: string) => `Questa risposta è stata redatta con l'aiuto di un assistente automatico e verificata da ${who}.`,
    team: "il nostro team di assistenza",
  },
  nl: {
    line: (who: string) => `Dit antwoord is opgesteld met hulp van een geautomatiseerde assistent en gecontroleerd door ${who}.`,
    team: "ons supportteam",
  },
} satisfies Record<TDisclosureLocale, { line: (who: string) => string; team: string }>;

export interface TDisclosureSettings {
  enabled: boolean;
  locale: TDisclosureLocale;
  /** Who reviewed it; null: the team, in the locale's words. */
  reviewer: string | null;
}

export function disclosureLine(settings: Pick<TDisclosureSettings, "locale" | "reviewer">): string {
  const words = LINES[settings.locale];
  return words.line(settings.reviewer ?? words.team);
}

/** The reply as the customer receives it: with the disclosure when enabled and the agent drafted it. */
export function disclosedReply(reply: string, input: { aiDrafted: boolean; settings: TDisclosureSettings }): { body: string; disclosed: boolean } {
  if (!input.settings.enabled || !input.aiDrafted) return { body: reply, disclosed: false };
  return { body: `${reply.trimEnd()}\n\n${disclosureLine(input.settings)}`, disclosed: true };
}
