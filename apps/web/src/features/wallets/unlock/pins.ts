import { RefusedError, type MutuaClient } from "@mutua/client";
import { ErrorCode } from "@mutua/domain";
import { getAuthConfig, setAuthConfig } from "../../../lib/storage";

/** The PIN code loads with the wallet code, only when a PIN is used. */
const walletLib = () => import("@mutua/wallet");

export class WrongPin extends Error {
  constructor(readonly attemptsLeft: number | null) {
    super("Wrong PIN");
  }
}
/** The server deleted this PIN after too many wrong ones (or it was removed elsewhere). */
export class PinDisabled extends Error {}

export async function pinRecordOf(walletId: string) {
  const raw = getAuthConfig()[walletId];
  if (raw === undefined || raw === null) return null;
  return (await walletLib()).parsePinRecord(raw);
}

export const hasPin = (walletId: string): boolean => Boolean(getAuthConfig()[walletId]);

/** Sets (or replaces) this device's PIN of a wallet: the server keeps the device secret, the device the ciphertext. */
export async function savePin(client: MutuaClient, walletId: string, walletPassword: string, pin: string): Promise<void> {
  const w = await walletLib();
  const previous = await pinRecordOf(walletId);
  const { proofSalt, verifier } = await w.newPinProof(pin);
  const { pinId, deviceSecret } = await client.call("createPin", { body: { walletId, verifier } });
  setAuthConfig(walletId, await w.sealWithPin(walletPassword, pin, deviceSecret, { pinId, proofSalt }));
  if (previous) await client.call("deletePin", { params: { pinId: previous.pinId } }).catch(() => undefined);
}

/** Turns the PIN off on this device (spec: "saves a null config"), and on the server. */
export async function removePin(client: MutuaClient, walletId: string): Promise<void> {
  const record = await pinRecordOf(walletId);
  if (record) {
    try {
      await client.call("deletePin", { params: { pinId: record.pinId } });
    } catch (e) {
      // Already gone on the server: the local record is useless either way.
      if (!(e instanceof RefusedError && (e.status === 404 || e.code === ErrorCode.pinDisabled))) throw e;
    }
  }
  setAuthConfig(walletId, null);
}

/** The wallet password behind a PIN, once the server has accepted the PIN's proof. */
export async function openPin(client: MutuaClient, walletId: string, pin: string): Promise<string> {
  const w = await walletLib();
  const record = await pinRecordOf(walletId);
  if (!record) throw new PinDisabled();
  let deviceSecret: string;
  try {
    ({ deviceSecret } = await client.call("openPin", { params: { pinId: record.pinId }, body: { proof: await w.pinProof(pin, record.proofSalt) } }));
  } catch (e) {
    if (e instanceof RefusedError && e.code === ErrorCode.wrongPin) throw new WrongPin(Number(e.body.values?.attemptsLeft ?? NaN) || null);
    if (e instanceof RefusedError && (e.code === ErrorCode.pinDisabled || e.status === 404 || e.status === 400)) {
      setAuthConfig(walletId, null);
      throw new PinDisabled();
    }
    throw e;
  }
  try {
    return await w.openWithPin(record, pin, deviceSecret);
  } catch {
    // The server accepted the PIN but the record does not open: it is damaged; drop it.
    setAuthConfig(walletId, null);
    throw new PinDisabled();
  }
}
