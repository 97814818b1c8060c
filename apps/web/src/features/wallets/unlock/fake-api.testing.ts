import { MutuaClient } from "@mutua/client";
import { ErrorCode, M, PIN_MAX_FAILURES, type ErrorBody } from "@mutua/domain";
import { toHex } from "@mutua/wallet";

/**
 * For unit tests: the real typed client over a scripted `fetch`, so the code under test meets the
 * client's own errors (RequestFailedError, RefusedError...) exactly as it does against a server.
 */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** One answer of the fake server; throwing from it is a network failure. */
export type Answer = (req: SeenRequest) => Response | Promise<Response>;

export const json =
  (status: number, body: unknown): Answer =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export const refusal = (status: number, error: ErrorBody["error"]): Answer => json(status, { error });

/** The connection broke (or timed out): what `fetch` itself rejects with. */
export const networkError: Answer = () => {
  throw new TypeError("fetch failed");
};

export function fakeApi() {
  const requests: SeenRequest[] = [];
  /** Answers by method and path, used in turn; the last one keeps answering. The latest script of a route wins. */
  const scripts: { method: string; path: string | RegExp; answers: Answer[] }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? "GET";
    const req: SeenRequest = {
      method,
      path: url.pathname,
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    };
    requests.push(req);
    const script = scripts.findLast((s) => s.method === method && (typeof s.path === "string" ? s.path === req.path : s.path.test(req.path)));
    if (!script?.answers.length) return json(404, { error: { code: ErrorCode.notFound, message: M.notFound } })(req);
    const answer = script.answers.length > 1 ? script.answers.shift()! : script.answers[0]!;
    return answer(req);
  }) as typeof fetch;
  const client = new MutuaClient({ baseUrl: "http://mutua.test", fetch: fetchImpl });
  return {
    client,
    requests,
    /** The requests made to one route. */
    to: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    on(method: string, path: string | RegExp, ...answers: Answer[]) {
      scripts.push({ method, path, answers });
    },
  };
}

export type FakeApi = ReturnType<typeof fakeApi>;

/**
 * The server's side of PINs, as apps/server/src/services/wallets/pins.ts behaves: the device secret for
 * the right proof, one failure more for a wrong one, and the fifth failure deletes the PIN.
 */
export function fakePinServer(api: FakeApi) {
  const pins = new Map<string, { verifier: string; deviceSecret: string; failures: number }>();
  let made = 0;
  api.on("POST", "/api/pins", (req) => {
    const pinId = `pin-${++made}`;
    const deviceSecret = toHex(crypto.getRandomValues(new Uint8Array(32)));
    pins.set(pinId, { verifier: (req.body as { verifier: string }).verifier, deviceSecret, failures: 0 });
    return json(200, { pinId, deviceSecret })(req);
  });
  api.on("POST", /^\/api\/pins\/[^/]+\/open$/, (req) => {
    const pinId = decodeURIComponent(req.path.split("/")[3]!);
    const pin = pins.get(pinId);
    const disabled = refusal(410, { code: ErrorCode.pinDisabled, message: M.pinDisabled, msgid: M.pinDisabled });
    if (!pin) return disabled(req);
    if ((req.body as { proof: string }).proof === pin.verifier) {
      pin.failures = 0;
      return json(200, { deviceSecret: pin.deviceSecret })(req);
    }
    if (++pin.failures >= PIN_MAX_FAILURES) {
      pins.delete(pinId);
      return disabled(req);
    }
    return refusal(403, { code: ErrorCode.wrongPin, message: M.authFailed, msgid: M.authFailed, values: { attemptsLeft: PIN_MAX_FAILURES - pin.failures } })(
      req,
    );
  });
  return pins;
}
