import path from "node:path";
import ipaddr from "ipaddr.js";

/** A rate limit: attempts allowed in one window, per bucket (services/platform/rate-limit.ts counts them). */
export interface Limit {
  /** Attempts allowed in one window. */
  max: number;
  windowSeconds: number;
}

export const TOPUP_PROVIDERS = ["transfer", "demo"] as const;
export type TopUpProviderName = (typeof TOPUP_PROVIDERS)[number];

function topupProvider(v: string | undefined): TopUpProviderName {
  const name = v?.trim() || "transfer";
  // A typo must stop the server at start-up, not show members a broken checkout.
  if (!(TOPUP_PROVIDERS as readonly string[]).includes(name)) throw new Error(`TOPUP_PROVIDER must be one of ${TOPUP_PROVIDERS.join(", ")}, not "${name}"`);
  return name as TopUpProviderName;
}

function metricsSettings(env: NodeJS.ProcessEnv): Pick<Settings, "metrics"> {
  const port = env.METRICS_PORT?.trim();
  if (!port) return {};
  // A typo must stop the server at start-up, not leave the monitoring silently blind.
  if (!/^\d+$/.test(port) || Number(port) > 65_535) throw new Error(`METRICS_PORT must be a port number, not "${port}"`);
  const token = env.METRICS_TOKEN?.trim();
  return { metrics: { port: Number(port), host: env.METRICS_HOST?.trim() || "127.0.0.1", ...(token ? { token } : {}) } };
}

/**
 * An entry of FEDERATION_ALLOW_HOSTS: a host name or an address, either maybe with a port
 * (`peer.internal:8443`, `[fd12::1]:8443`), or a range of addresses (`10.1.2.0/24`).
 */
export type AllowedPeerHost =
  | { kind: "name"; name: string; port?: number }
  | { kind: "address"; address: string; port?: number }
  | { kind: "range"; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port?: undefined };

function allowedPeerHost(entry: string): AllowedPeerHost {
  // A typo must stop the server at start-up, not leave a peer unreachable for no reason said.
  const wrong = () => new Error(`FEDERATION_ALLOW_HOSTS: "${entry}" is not a host name, an address or a range of addresses (CIDR), with a port or not`);
  if (entry.includes("/")) {
    if (!ipaddr.isValidCIDR(entry)) throw wrong();
    return { kind: "range", range: ipaddr.parseCIDR(entry) };
  }
  // "[v6]" or "[v6]:port"; a bare IPv6 address, without a port; "host" or "host:port".
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const plain = /^([^:]+)(?::(\d{1,5}))?$/.exec(entry);
  const [host, portText] = bracketed ? [bracketed[1]!, bracketed[2]] : ipaddr.IPv6.isValid(entry) ? [entry, undefined] : plain ? [plain[1]!, plain[2]] : [];
  if (host === undefined) throw wrong();
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65_535)) throw wrong();
  const at = port === undefined ? {} : { port };
  if (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host))
    return { kind: "address", address: ipaddr.process(host).toNormalizedString(), ...at };
  if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/.test(host)) throw wrong();
  return { kind: "name", name: host, ...at };
}

/** Server settings, all from environment variables (documented in docs/operations.md, "Server environment"). */
export interface Settings {
  port: number;
  host: string;
  /** Where the server is reached by members; used in e-mailed links, never taken from request headers. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (else publicUrl is a guess from PORT). */
  publicUrlConfigured: boolean;
  /** Origins besides PUBLIC_URL's whose passkeys count (native shells), from PASSKEY_ORIGINS. */
  passkeyOrigins: string[];
  databaseUrl?: string;
  dataDir: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Shown as the counterparty of top-ups and reconversions, and as the safe wallet's owner. */
  associationName: string;
  /** Folder of the built web app. */
  webDir: string;
  /** config.json served to the app (spec section 3); missing keys take their defaults. */
  appConfigFile?: string;
  allowSignup: boolean;
  allowResetPassword: boolean;
  sessionTtlSeconds: number;
  sessionIdleSeconds: number;
  resetTokenTtlSeconds: number;
  /** Invitations of imported members sent a minute at most, across every instance (services/members/invitations.ts). */
  invitationsPerMinute: number;
  /** How long a proof of the password (or a passkey) lets a session add passkeys and device logins. */
  reauthWindowSeconds: number;
  trustProxy: boolean;
  /** How members pay top-up orders (services/payments/providers): "transfer" or "demo". */
  topupProvider: TopUpProviderName;
  /**
   * The custodial backend that Lokavaluto clients (lokapi's Cyclos plugin) see, by id, from
   * LOKAPI_CYCLOS_BACKEND; by default the first custodial backend.
   */
  lokapiCyclosBackend?: string;
  /**
   * Prometheus metrics (http/metrics.ts), served on a port of their own (METRICS_PORT; unset, not
   * served) bound to METRICS_HOST (the loopback interface by default), asking for
   * `Authorization: Bearer <METRICS_TOKEN>` when that is set.
   */
  metrics?: { port: number; host: string; token?: string };
  /**
   * Notification e-mails and pushes (services/notifications/notification-worker.ts): a failed send is tried again after
   * `retryBaseSeconds`, doubled at each failure up to `retryMaxSeconds`, `maxAttempts` times in all.
   */
  notificationMail: { retryBaseSeconds: number; retryMaxSeconds: number; maxAttempts: number };
  /**
   * How the notification worker sends (services/notifications/notification-worker.ts): e-mails and pushes each in
   * a lane of its own with this many sends at once per instance (NOTIFICATION_EMAIL_SENDERS,
   * NOTIFICATION_PUSH_SENDERS); at most `pushPerMember` pushes of one member in flight across every
   * instance (PUSH_PER_MEMBER); a push service silent `pushTimeoutSeconds` is given up
   * (PUSH_TIMEOUT_SECONDS); a device whose pushes failed `pushMaxFailures` times in a row, paused
   * meanwhile as a message's retries are, is dropped (PUSH_MAX_FAILURES).
   */
  notificationLanes: { emailSenders: number; pushSenders: number; pushPerMember: number; pushTimeoutSeconds: number; pushMaxFailures: number };
  /**
   * The push services the server sends Web Push messages to, as host suffixes (PUSH_SERVICE_HOSTS,
   * comma-separated): a subscription names the URL the server will POST to, so only these hosts
   * are accepted (services/notifications/push-subscriptions.ts), never a member's choice of address, and on port
   * 443 only unless the entry names another (`host:port`, a test's own push service).
   */
  pushServiceHosts: string[];
  /**
   * How often each instance looks for work fallen due by the calendar, dues and standing orders
   * (services/platform/due-work.ts), in seconds (DUE_POLL_SECONDS); a change that makes work due
   * wakes it sooner.
   */
  duePollSeconds: number;
  /**
   * Which other associations' servers this one may reach (services/federation/peer-net.ts): public
   * addresses over HTTPS, the addresses that are not public FEDERATION_ALLOW_HOSTS names
   * (comma-separated), and this machine's loopback addresses, over plain HTTP too, when
   * FEDERATION_ALLOW_LOOPBACK_HTTP is set (tests, two associations' servers behind one proxy).
   * `doubtDays` (FEDERATION_DOUBT_DAYS): how long a payment across stays in doubt, the other
   * server silent, before the owners may end it and return the member's money.
   */
  federation: { allowHosts: AllowedPeerHost[]; allowLoopbackHttp: boolean; doubtDays: number };
  /** The association's bank account, shown on transfer orders. */
  bank: { iban: string; bic: string; holder: string };
  limits: {
    loginPerIp: Limit;
    loginPerAccount: Limit;
    signupPerIp: Limit;
    signupPerAccount: Limit;
    resetPerIp: Limit;
    resetPerAccount: Limit;
    /** PIN proofs per member, on top of the 5 wrong PINs that disable one PIN. */
    pinPerMember: Limit;
    /** PIN proofs per client address, whoever's session they come with. */
    pinPerIp: Limit;
    /** Anonymous passkey login options per client address (each one writes a challenge). */
    passkeyOptionsPerIp: Limit;
    /** Directory searches per member: generous for typing, short of walking the directory. */
    searchPerMember: Limit;
    /** Payment requests created per member (a busy till asks every few seconds at most). */
    paymentRequestPerMember: Limit;
    /** The board's books per member (RATE_LIMIT_BOOKS_MEMBER_*): each lists up to 100,000 movements. */
    booksPerMember: Limit;
    /** The board's figures per member (RATE_LIMIT_FIGURES_MEMBER_*): each aggregates the ledger over a period. */
    figuresPerMember: Limit;
    /** Acceptances of invitations per client address (RATE_LIMIT_FEDERATION_ACCEPT_IP_*): anybody's server may send one. */
    federationAcceptPerIp: Limit;
  };
}

/** The browsers' push services: Chrome and Edge's (FCM), Firefox's, Safari's, Windows'. */
export const DEFAULT_PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com"];

const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
const flag = (v: string | undefined, d: boolean) => (v === undefined || v === "" ? d : /^(1|true|yes|on)$/i.test(v));

function limit(env: NodeJS.ProcessEnv, name: string, max: number, windowSeconds: number): Limit {
  return { max: int(env[`RATE_LIMIT_${name}_MAX`], max), windowSeconds: int(env[`RATE_LIMIT_${name}_WINDOW`], windowSeconds) };
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const port = int(env.PORT, 8080);
  const root = path.resolve(import.meta.dirname, "../../..");
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    passkeyOrigins: (env.PASSKEY_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: path.resolve(env.DATA_DIR ?? "./data"),
    ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    mailFrom: env.MAIL_FROM ?? "Mutua <no-reply@localhost>",
    associationName: env.ASSOCIATION_NAME ?? "Association",
    webDir: path.resolve(env.WEB_DIR ?? path.join(root, "apps/web/dist")),
    ...(env.APP_CONFIG ? { appConfigFile: path.resolve(env.APP_CONFIG) } : {}),
    allowSignup: flag(env.ALLOW_SIGNUP, true),
    allowResetPassword: flag(env.ALLOW_RESET_PASSWORD, true),
    sessionTtlSeconds: int(env.SESSION_TTL_SECONDS, 30 * 86_400),
    sessionIdleSeconds: int(env.SESSION_IDLE_SECONDS, 7 * 86_400),
    resetTokenTtlSeconds: int(env.RESET_TOKEN_TTL_SECONDS, 3_600),
    invitationsPerMinute: Math.max(1, int(env.INVITATIONS_PER_MINUTE, 30)),
    reauthWindowSeconds: int(env.REAUTH_WINDOW_SECONDS, 300),
    trustProxy: flag(env.TRUST_PROXY, false),
    topupProvider: topupProvider(env.TOPUP_PROVIDER),
    ...(env.LOKAPI_CYCLOS_BACKEND ? { lokapiCyclosBackend: env.LOKAPI_CYCLOS_BACKEND } : {}),
    ...metricsSettings(env),
    notificationMail: {
      retryBaseSeconds: Math.max(1, int(env.MAIL_RETRY_BASE_SECONDS, 30)),
      retryMaxSeconds: Math.max(1, int(env.MAIL_RETRY_MAX_SECONDS, 3_600)),
      maxAttempts: Math.max(1, int(env.MAIL_MAX_ATTEMPTS, 8)),
    },
    notificationLanes: {
      emailSenders: Math.max(1, int(env.NOTIFICATION_EMAIL_SENDERS, 3)),
      pushSenders: Math.max(1, int(env.NOTIFICATION_PUSH_SENDERS, 6)),
      pushPerMember: Math.max(1, int(env.PUSH_PER_MEMBER, 2)),
      pushTimeoutSeconds: Math.max(1, int(env.PUSH_TIMEOUT_SECONDS, 5)),
      pushMaxFailures: Math.max(1, int(env.PUSH_MAX_FAILURES, 8)),
    },
    duePollSeconds: Math.max(1, int(env.DUE_POLL_SECONDS, 60)),
    pushServiceHosts: (env.PUSH_SERVICE_HOSTS ?? DEFAULT_PUSH_SERVICE_HOSTS.join(","))
      .split(",")
      .map((h) => h.trim().toLowerCase().replace(/^\.+/, ""))
      .filter(Boolean),
    federation: {
      allowHosts: (env.FEDERATION_ALLOW_HOSTS ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
        .map(allowedPeerHost),
      allowLoopbackHttp: flag(env.FEDERATION_ALLOW_LOOPBACK_HTTP, false),
      doubtDays: Math.max(1, int(env.FEDERATION_DOUBT_DAYS, 7)),
    },
    bank: { iban: env.BANK_IBAN ?? "", bic: env.BANK_BIC ?? "", holder: env.BANK_HOLDER ?? env.ASSOCIATION_NAME ?? "Association" },
    limits: {
      loginPerIp: limit(env, "LOGIN_IP", 50, 900),
      loginPerAccount: limit(env, "LOGIN_ACCOUNT", 10, 900),
      signupPerIp: limit(env, "SIGNUP_IP", 20, 3_600),
      signupPerAccount: limit(env, "SIGNUP_ACCOUNT", 5, 3_600),
      resetPerIp: limit(env, "RESET_IP", 20, 3_600),
      resetPerAccount: limit(env, "RESET_ACCOUNT", 5, 3_600),
      pinPerMember: limit(env, "PIN_MEMBER", 30, 900),
      pinPerIp: limit(env, "PIN_IP", 100, 900),
      passkeyOptionsPerIp: limit(env, "PASSKEY_OPTIONS_IP", 100, 900),
      searchPerMember: limit(env, "SEARCH_MEMBER", 600, 900),
      paymentRequestPerMember: limit(env, "PAYMENT_REQUEST_MEMBER", 60, 600),
      booksPerMember: limit(env, "BOOKS_MEMBER", 10, 600),
      figuresPerMember: limit(env, "FIGURES_MEMBER", 60, 600),
      federationAcceptPerIp: limit(env, "FEDERATION_ACCEPT_IP", 20, 3_600),
    },
  };
}
