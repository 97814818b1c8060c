import { timingSafeEqual } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { ErrorCode, M } from "@mutua/domain";
import type { Db, Queryable } from "../../db/pool";
import { Refusal, notFound } from "../platform/errors";
import type { Settings } from "../../settings";
import { credentialAdded, DEVICE_ID } from "./credentials";
import type { Mailer } from "../platform/mail";
import { findMemberById, toProfile } from "./members";
import { clear, forgive, hit } from "../platform/rate-limit";
import { createSession, markProven, newToken, tokenHash } from "./sessions";

const CHALLENGE_TTL_SECONDS = 300;

/**
 * Where passkeys are valid: the host of PUBLIC_URL (WebAuthn ties a credential to a domain, so
 * an address reached by IP cannot have one) and its origin, plus the origins of native shells.
 */
export function relyingParty(s: Settings) {
  const url = new URL(s.publicUrl);
  return { id: url.hostname, name: s.associationName, origins: [url.origin, ...s.passkeyOrigins] };
}

async function newChallenge(db: Queryable, purpose: "register" | "login", memberId: bigint | null, challenge: string): Promise<string> {
  // Answered or not, old challenges are garbage.
  await db.query("DELETE FROM webauthn_challenges WHERE expires_at < now()");
  const { rows } = await db.query<{ id: string }>(
    "INSERT INTO webauthn_challenges (purpose, member_id, challenge, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id",
    [purpose, memberId, challenge, CHALLENGE_TTL_SECONDS],
  );
  return rows[0]!.id;
}

/** Takes a challenge once: a replayed answer finds nothing. */
async function takeChallenge(db: Queryable, id: string, purpose: "register" | "login", memberId: bigint | null): Promise<string | null> {
  const { rows } = await db.query<{ challenge: string }>(
    "DELETE FROM webauthn_challenges WHERE id = $1 AND purpose = $2 AND member_id IS NOT DISTINCT FROM $3 AND expires_at > now() RETURNING challenge",
    [id, purpose, memberId],
  );
  return rows[0]?.challenge ?? null;
}

export async function registrationOptions(db: Db, s: Settings, me: bigint) {
  const member = await findMemberById(db, me);
  if (!member) throw notFound();
  const rp = relyingParty(s);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userDisplayName: `${member.first_name} ${member.last_name}`,
    userID: new TextEncoder().encode(`member:${member.id}`),
    attestationType: "none",
    // A passkey of this device, found by the login screen without typing the e-mail, and only
    // usable after the fingerprint or face check.
    authenticatorSelection: { authenticatorAttachment: "platform", residentKey: "required", userVerification: "required" },
  });
  const challengeId = await newChallenge(db, "register", me, options.challenge);
  return { challengeId, options: options as unknown as Record<string, unknown> };
}

/** Registers a passkey of the member's; the caller has checked that the session is fresh (step-up). */
export async function registerPasskey(
  db: Db,
  s: Settings,
  mailer: Mailer,
  me: bigint,
  challengeId: string,
  response: Record<string, unknown>,
  name: string,
  defaultLanguage: string,
) {
  const challenge = await takeChallenge(db, challengeId, "register", me);
  const refused = () => new Refusal(ErrorCode.validation, { id: M.biometricSaveFailed });
  if (!challenge) throw refused();
  const rp = relyingParty(s);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw refused();
  }
  if (!verified.verified) throw refused();
  const { credential } = verified.registrationInfo;
  const added = await credentialAdded(
    db,
    s,
    mailer,
    me,
    { kind: "passkey", name },
    async (tx) => {
      const { rowCount } = await tx.query(
        `INSERT INTO passkeys (credential_id, member_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (credential_id) DO NOTHING`,
        [credential.id, me, Buffer.from(credential.publicKey), credential.counter, credential.transports ?? [], name],
      );
      return Boolean(rowCount);
    },
    defaultLanguage,
  );
  // A credential id already taken (by another member, or already registered) is not a new one to claim.
  if (!added) throw refused();
  return { credentialId: credential.id };
}

/**
 * A native shell's biometric credential: 256 random bits that only the phone's secure storage
 * keeps. The caller has checked that the session is fresh (step-up).
 */
export async function createDeviceLogin(db: Db, s: Settings, mailer: Mailer, me: bigint, name: string, defaultLanguage: string) {
  const { token, hash } = newToken();
  const id = await credentialAdded(
    db,
    s,
    mailer,
    me,
    { kind: "device", name },
    async (tx) => {
      const { rows } = await tx.query<{ id: string }>("INSERT INTO device_logins (member_id, secret_hash, name) VALUES ($1, $2, $3) RETURNING id", [
        me,
        hash,
        name,
      ]);
      return rows[0]!.id;
    },
    defaultLanguage,
  );
  return { credentialId: `device:${id}`, secret: token };
}

/** Opens a session for the secret the phone released after its biometric check, counted like password logins. */
export async function deviceLogin(db: Db, s: Settings, ip: string, credentialId: string, secret: string) {
  const ipBucket = `login:ip:${ip}`;
  await hit(db, ipBucket, s.limits.loginPerIp);
  const id = DEVICE_ID.exec(credentialId)?.[1];
  const { rows } = await db.query<{ member_id: bigint; secret_hash: Buffer }>("SELECT member_id, secret_hash FROM device_logins WHERE id = $1", [id]);
  const row = rows[0];
  if (!row || !timingSafeEqual(row.secret_hash, tokenHash(secret))) throw new Refusal(ErrorCode.invalidCredentials, { id: M.invalidCredentials });
  await db.query("UPDATE device_logins SET last_used_at = now() WHERE id = $1", [id]);
  const member = await findMemberById(db, row.member_id);
  if (!member) throw new Refusal(ErrorCode.invalidCredentials, { id: M.invalidCredentials });
  await forgive(db, ipBucket);
  // The phone's secret is not a proof of the password: a session it opens starts without step-up.
  const session = await createSession(db, member.id, s.sessionTtlSeconds, { openedBy: credentialId, proven: false });
  return { ...session, profile: toProfile(member) };
}

/**
 * Login options; with the device's credential id only that passkey is offered (no account
 * chooser). Anonymous and each one a row: counted per client address.
 */
export async function loginOptions(db: Db, s: Settings, ip: string, credentialId?: string) {
  await hit(db, `passkey-options:ip:${ip}`, s.limits.passkeyOptionsPerIp);
  const rp = relyingParty(s);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: credentialId ? [{ id: credentialId }] : [],
  });
  const challengeId = await newChallenge(db, "login", null, options.challenge);
  return { challengeId, options: options as unknown as Record<string, unknown> };
}

export interface PasskeyRow {
  credential_id: string;
  member_id: bigint;
  public_key: Buffer;
  counter: string;
  transports: string[];
}

/**
 * Checks an authenticator's answer to a login challenge: the challenge is taken once, the
 * signature verified against the stored public key, and the counter moves forward. Returns the
 * passkey. `member` restricts it to one member's passkeys (a step-up confirmation).
 */
export async function verifyAssertion(db: Db, s: Settings, challengeId: string, response: Record<string, unknown>, member?: bigint): Promise<PasskeyRow> {
  const invalid = () => new Refusal(ErrorCode.invalidCredentials, { id: M.invalidCredentials });
  const challenge = await takeChallenge(db, challengeId, "login", null);
  const credentialId = typeof response.id === "string" ? response.id : "";
  const { rows } = await db.query<PasskeyRow>("SELECT * FROM passkeys WHERE credential_id = $1", [credentialId]);
  const passkey = rows[0];
  if (!challenge || !passkey || (member !== undefined && passkey.member_id !== member)) throw invalid();
  const accountBucket = `login:passkey:${passkey.member_id}`;
  await hit(db, accountBucket, s.limits.loginPerAccount);
  const rp = relyingParty(s);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.counter),
        transports: passkey.transports as never,
      },
    });
  } catch {
    throw invalid();
  }
  if (!verified.verified) throw invalid();
  // The counter only moves forward (authenticators that keep none always say 0).
  const { rowCount } = await db.query("UPDATE passkeys SET counter = $2, last_used_at = now() WHERE credential_id = $1 AND ($2 = 0 OR counter < $2)", [
    passkey.credential_id,
    verified.authenticationInfo.newCounter,
  ]);
  if (!rowCount) throw invalid();
  await clear(db, accountBucket);
  return passkey;
}

/** Checks the authenticator's signature and opens a session, counted like password logins. */
export async function passkeyLogin(db: Db, s: Settings, ip: string, challengeId: string, response: Record<string, unknown>) {
  const ipBucket = `login:ip:${ip}`;
  await hit(db, ipBucket, s.limits.loginPerIp);
  const passkey = await verifyAssertion(db, s, challengeId, response);
  const member = await findMemberById(db, passkey.member_id);
  if (!member) throw new Refusal(ErrorCode.invalidCredentials, { id: M.invalidCredentials });
  await forgive(db, ipBucket);
  // The fingerprint or face check is worth the password: the session may add credentials at once.
  const session = await createSession(db, member.id, s.sessionTtlSeconds, { openedBy: passkey.credential_id, proven: true });
  return { ...session, profile: toProfile(member) };
}

/** Step-up by one of the member's own passkeys: the session may add credentials for a while. */
export async function confirmPasskey(db: Db, s: Settings, me: bigint, token: string, challengeId: string, response: Record<string, unknown>) {
  try {
    await verifyAssertion(db, s, challengeId, response, me);
  } catch (e) {
    // Not a 401: the session is fine, only this confirmation failed.
    if (e instanceof Refusal && e.code === ErrorCode.invalidCredentials) throw new Refusal(ErrorCode.reauthFailed, { id: M.authFailed });
    throw e;
  }
  return { ok: true as const, freshUntil: (await markProven(db, token, s.reauthWindowSeconds)).toISOString() };
}
