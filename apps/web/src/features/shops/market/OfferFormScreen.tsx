import { useId, useState } from "react";
import { useLingui } from "@lingui/react";
import { addDays, format } from "date-fns";
import { RefusedError } from "@mutua/client";
import { MARKET_CATEGORIES, MARKET_LIMITS, parseAmountInput, type MarketCategory, type MarketKind, type OfferView } from "@mutua/domain";
import { Link, useNavigate } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { useAccounts } from "../../../data/accounts";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, PreviousIcon } from "../../../ui/icons";
import { accountLabel } from "../../wallets";
import { photoFromFile } from "../../members";
import { useOffer, useOfferPhotos, useSaveOffer } from "./queries";
import { failure } from "./errors";
import { categoryLabel } from "./words";
import "./market.css";

const DAY = "yyyy-MM-dd";

/** Posting (/market/new) or editing and renewing (/market/:offerId/edit) an offer or a need. */
export function OfferFormScreen({ offerId }: { offerId?: string }) {
  const { i18n } = useLingui();
  const offer = useOffer(offerId ?? "");
  const editing = Boolean(offerId);
  return (
    <main className="page market offer-form-page">
      <header className="page-header">
        <h1>{editing ? i18n._("Edit or renew") : i18n._("Post an offer or a need")}</h1>
        <Link className="button small" to={offerId ? `/market/${offerId}` : "/market"}>
          <Icon node={PreviousIcon} />
          {i18n._("Back")}
        </Link>
      </header>
      {editing && offer.isPending && <Skeleton rows={4} className="tx-skeleton" />}
      {(!editing || offer.data) && <OfferForm offer={editing ? (offer.data ?? null) : null} />}
    </main>
  );
}

function OfferForm({ offer }: { offer: OfferView | null }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const ids = useId();
  const navigate = useNavigate();
  const accounts = useAccounts();
  const save = useSaveOffer();
  const photos = useOfferPhotos(offer?.id ?? "");
  const wallets = (accounts.data ?? []).filter((a) => a.active && !a.unavailable);
  const [today] = useState(() => new Date());
  const [kind, setKind] = useState<MarketKind>(offer?.kind ?? "offer");
  const [category, setCategory] = useState<MarketCategory>(offer?.category ?? "goods");
  const [title, setTitle] = useState(offer?.title ?? "");
  const [description, setDescription] = useState(offer?.description ?? "");
  const [toAgree, setToAgree] = useState(offer ? offer.price === null : false);
  const [price, setPrice] = useState(offer?.price ? fmt.amountInput(offer.price) : "");
  const [walletId, setWalletId] = useState(offer?.walletId ?? "");
  // A renewal starts a month from today; the member moves it as they like.
  const [expires, setExpires] = useState(format(addDays(today, 30), DAY));
  const [newPhotos, setNewPhotos] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const wallet = walletId || wallets[0]?.id || "";
  const photoCount = (offer?.photos.length ?? 0) + newPhotos.length;

  const submit = async () => {
    const problems: Record<string, string> = {};
    if (!title.trim()) problems.title = i18n._("Give it a title.");
    let priceText: string | null = null;
    if (!toAgree) {
      const p = price.trim() === "" ? null : parseAmountInput(price, "send");
      if (!p) problems.price = i18n._("Give a price, or choose a price to agree.");
      else if (!p.ok) problems.price = tr(p.error);
      else priceText = p.text;
    }
    const needsWallet = kind === "offer" || priceText !== null;
    if (needsWallet && !wallet) problems.walletId = i18n._("You need an active account to be paid.");
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const body = {
      kind,
      category,
      title: title.trim(),
      description: description.trim(),
      price: priceText,
      walletId: needsWallet || wallet ? wallet || null : null,
      expiresAt: new Date(`${expires}T23:59:59`).toISOString(),
    };
    try {
      const saved = await save.mutateAsync({ id: offer?.id ?? null, body });
      for (const data of newPhotos) await photos.add.mutateAsync(data).catch(() => undefined);
      toast.success(offer ? i18n._("Saved") : i18n._("Posted in the marketplace"));
      void navigate(`/market/${saved.id}`, { replace: true });
    } catch (e) {
      if (e instanceof RefusedError && Object.keys(e.fields).length > 0) setErrors(Object.fromEntries(Object.entries(e.fields).map(([k, m]) => [k, tr(m)])));
      else toast.error(failure(e));
    }
  };

  const addPhoto = async (file: File | undefined) => {
    if (!file) return;
    try {
      const data = await photoFromFile(file);
      if (offer) await photos.add.mutateAsync(data);
      else setNewPhotos((p) => [...p, data]);
    } catch (e) {
      toast.error(e instanceof RefusedError ? tr(e.msg) : i18n._("This picture could not be read."));
    }
  };

  const field = (name: string) => ({ "aria-invalid": errors[name] ? true : undefined, "aria-describedby": errors[name] ? `${ids}-${name}-error` : undefined });
  const error = (name: string) =>
    errors[name] && (
      <p className="field-error" id={`${ids}-${name}-error`}>
        {errors[name]}
      </p>
    );

  return (
    <form
      className="offer-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <fieldset className="offer-kind-choice">
        <legend>{i18n._("Type")}</legend>
        {(["offer", "need"] as const).map((k) => (
          <label key={k}>
            <input type="radio" name={`${ids}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} />
            {k === "offer" ? i18n._("I offer") : i18n._("I need")}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${ids}-title`}>{i18n._("Title")}</label>
        <input id={`${ids}-title`} value={title} maxLength={MARKET_LIMITS.title} onChange={(e) => setTitle(e.target.value)} {...field("title")} />
        {error("title")}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-category`}>{i18n._("Category")}</label>
        <select id={`${ids}-category`} value={category} onChange={(e) => setCategory(e.target.value as MarketCategory)}>
          {MARKET_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(i18n, c)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-description`}>{i18n._("Description")}</label>
        <textarea
          id={`${ids}-description`}
          rows={4}
          value={description}
          maxLength={MARKET_LIMITS.description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <label className="offer-to-agree">
        <input type="checkbox" checked={toAgree} onChange={(e) => setToAgree(e.target.checked)} />
        {i18n._("Price to agree")}
      </label>
      {!toAgree && (
        <div className="field">
          <label htmlFor={`${ids}-price`}>{i18n._("Price")}</label>
          <input id={`${ids}-price`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} {...field("price")} />
          {error("price")}
        </div>
      )}
      {wallets.length > 0 ? (
        <div className="field">
          <label htmlFor={`${ids}-wallet`}>{i18n._("Paid into")}</label>
          <select id={`${ids}-wallet`} value={wallet} onChange={(e) => setWalletId(e.target.value)} {...field("walletId")}>
            {wallets.map((w) => (
              <option key={w.id} value={w.id}>
                {accountLabel(i18n, w)}
              </option>
            ))}
          </select>
          {error("walletId")}
        </div>
      ) : (
        (errors.walletId || kind === "offer") && <p className="notice info">{i18n._("You need an active account to be paid.")}</p>
      )}
      <div className="field">
        <label htmlFor={`${ids}-expires`}>{i18n._("Listed until")}</label>
        <input
          id={`${ids}-expires`}
          type="date"
          value={expires}
          min={format(today, DAY)}
          max={format(addDays(today, MARKET_LIMITS.maxDays - 1), DAY)}
          onChange={(e) => setExpires(e.target.value)}
          {...field("expiresAt")}
        />
        {error("expiresAt")}
      </div>
      <div className="field">
        <span className="label">{i18n._("Photos")}</span>
        <div className="offer-photos small">
          {offer?.photos.map((p) => (
            <span key={p.id} className="offer-photo">
              <img src={p.url} alt="" width={64} height={64} />
              <button type="button" className="button small" onClick={() => photos.remove.mutate(p.id)}>
                {i18n._("Remove")}
              </button>
            </span>
          ))}
          {newPhotos.map((data, i) => (
            <span key={i} className="offer-photo">
              <img src={`data:image/jpeg;base64,${data}`} alt="" width={64} height={64} />
              <button type="button" className="button small" onClick={() => setNewPhotos((p) => p.filter((_, j) => j !== i))}>
                {i18n._("Remove")}
              </button>
            </span>
          ))}
        </div>
        {photoCount < MARKET_LIMITS.photos && (
          <label className="button small">
            {i18n._("Add a photo")}
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="visually-hidden"
              onChange={(e) => {
                void addPhoto(e.target.files?.[0]);
                e.target.value = "";
              }}
            />
          </label>
        )}
      </div>
      <button type="submit" className="button primary wide" disabled={save.isPending}>
        {offer ? i18n._("Save") : i18n._("Post")}
      </button>
    </form>
  );
}
