import { describe, expect, it } from "vitest";
import { setupI18n } from "@lingui/core";
import type { AuditEntry } from "@mutua/domain";
import english from "../../../locales/en-US.json";
import french from "../../../locales/fr-FR.json";
import { compilePlain } from "../../../lib/i18n";
import { auditAction, auditActor, auditChanges } from "./audit-words";

/** The app's i18n in `locale`, its plain messages compiled on the fly as the app does. */
function i18nIn(locale: "en-US" | "fr-FR") {
  const i18n = setupI18n({ locale, messages: { [locale]: (locale === "en-US" ? english : french).messages as never } });
  i18n.setMessagesCompiler(compilePlain);
  return i18n;
}

const entry = (action: string, details: Record<string, unknown>): AuditEntry =>
  ({
    id: "1",
    at: "2026-01-01T00:00:00.000Z",
    actor: "Ada Lovelace",
    actorAssociation: null,
    action,
    subject: "association",
    subjectName: null,
    details,
  }) as AuditEntry;

describe("what an audit entry changed", () => {
  const rights = entry("member.rights_changed", {
    before: { accounts: true, credits: false, board: false, owner: true },
    after: { accounts: true, credits: false, board: true, owner: false },
  });
  const settings = entry("association.settings_changed", {
    before: { "money.currencySymbol": "BZK", "identity.allowSignup": true, "money.backends.ledger:buzz.topUpMax": "500.00", "identity.helpUrl": null },
    after: {
      "money.currencySymbol": "BUZ",
      "identity.allowSignup": false,
      "money.backends.ledger:buzz.topUpMax": "750.00",
      "identity.helpUrl": "https://buzz.example/help",
    },
  });

  it("names each right and setting that changed, before and after, in the member's language", () => {
    expect(auditChanges(i18nIn("en-US"), rights)).toEqual(["Board: off → on", "Owner: on → off"]);
    expect(auditChanges(i18nIn("en-US"), settings)).toEqual([
      "Currency symbol: BZK → BUZ",
      "Members can sign up: on → off",
      "Top-up maximum (ledger wallets): 500.00 → 750.00",
      "Help: none → https://buzz.example/help",
    ]);
    expect(auditChanges(i18nIn("fr-FR"), rights)).toEqual(["Bureau : non → oui", "Propriétaire : oui → non"]);
    expect(auditChanges(i18nIn("fr-FR"), settings).slice(0, 3)).toEqual([
      "Symbole de la monnaie : BZK → BUZ",
      "Les membres peuvent s'inscrire : oui → non",
      "Rechargement maximum (portefeuilles du registre) : 500,00 → 750,00",
    ]);
  });

  it("says nothing more for other actions, and names an older entry's backend setting without its wallets", () => {
    expect(auditChanges(i18nIn("en-US"), entry("password.reset", { deviceLoginsRemoved: 0 }))).toEqual([]);
    expect(
      auditChanges(
        i18nIn("en-US"),
        entry("association.settings_changed", { before: { "money.backends.0.floor": "-100.00" }, after: { "money.backends.0.floor": "-150.00" } }),
      ),
    ).toEqual(["Mutual credit floor: -100.00 → -150.00"]);
  });
});

describe("who did an audit entry", () => {
  const peer = { ...entry("federation.peer_terms_changed", { peer: "Gonette de Lyon" }), actor: null, actorAssociation: "Gonette de Lyon" };
  const operator = { ...entry("import.run", {}), actor: null };

  it("names a member, the linked association whose server took a step of the link, or else the server's operator", () => {
    expect(auditActor(i18nIn("en-US"), entry("password.reset", {}))).toBe("by Ada Lovelace");
    expect(auditActor(i18nIn("en-US"), peer)).toBe("by the linked association Gonette de Lyon");
    expect(auditActor(i18nIn("fr-FR"), peer)).toBe("par l'association liée Gonette de Lyon");
    expect(auditActor(i18nIn("en-US"), operator)).toBe("by the server's operator");
  });
});

describe("a link's end and a linked server's move", () => {
  it("says which association ended the link, and where the other association's server moved to", () => {
    const ended = entry("federation.link_ended", { peer: "Gonette de Lyon", held: "2.50", owed: "-1.00" });
    const peerEnded = { ...entry("federation.peer_link_ended", { peer: "Gonette de Lyon" }), actor: null, actorAssociation: "Gonette de Lyon" };
    const moved = {
      ...entry("federation.peer_address_changed", { peer: "Gonette de Lyon", before: "https://old.example", after: "https://new.example" }),
      actor: null,
      actorAssociation: "Gonette de Lyon",
    };
    expect(auditAction(i18nIn("en-US"), ended)).toBe("Link with another association ended: Gonette de Lyon");
    expect(auditAction(i18nIn("en-US"), peerEnded)).toBe("The other association ended the link: Gonette de Lyon");
    expect(auditAction(i18nIn("en-US"), moved)).toBe("The other association's server moved: https://new.example");
    expect(auditAction(i18nIn("fr-FR"), moved)).toBe("Le serveur de l'autre association a changé d'adresse : https://new.example");
    expect(auditActor(i18nIn("fr-FR"), peerEnded)).toBe("par l'association liée Gonette de Lyon");
  });
});

describe("a settlement of a link in the audit log", () => {
  const details = {
    peer: "Gonette de Lyon",
    settlement: "fs_0123456789abcdefghij",
    amount: "1234.00",
    currency: "DL",
    peerAmount: "1542.50",
    peerCurrency: "GON",
  };

  it("says what happened to it, with both amounts and which way, in the reader's language", () => {
    expect(auditAction(i18nIn("en-US"), entry("federation.settlement_proposed", { ...details, direction: "pay" }))).toBe(
      "Settlement with Gonette de Lyon proposed: 1,234.00 DL (1,542.50 GON), paid by us",
    );
    expect(auditAction(i18nIn("en-US"), entry("federation.peer_settlement_accepted", { ...details, direction: "receive" }))).toBe(
      "Gonette de Lyon accepted our settlement, posted here too: 1,234.00 DL (1,542.50 GON), paid to us",
    );
    expect(auditAction(i18nIn("fr-FR"), entry("federation.settlement_accepted", { ...details, direction: "receive" }))).toBe(
      "Règlement avec Gonette de Lyon accepté et comptabilisé : 1\u202f234,00 DL (1\u202f542,50 GON), qui nous sont payés",
    );
    // An entry without its amounts still says what happened.
    expect(auditAction(i18nIn("en-US"), entry("federation.peer_settlement_withdrawn", { peer: "Gonette de Lyon" }))).toBe(
      "Gonette de Lyon withdrew the settlement it proposed",
    );
  });
});
