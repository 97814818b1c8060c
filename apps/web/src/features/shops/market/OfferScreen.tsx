import { useLingui } from "@lingui/react";
import type { OfferView, QrPayload } from "@mutua/domain";
import { Link, useNavigate } from "../../../lib/router";
import { useFormat } from "../../../lib/format";
import { tr } from "../../../lib/i18n";
import { toast } from "../../../lib/toast";
import { useRights } from "../../../data/session";
import { useModals } from "../../../ui/modals";
import { Avatar } from "../../../ui/Avatar";
import { Skeleton } from "../../../ui/Skeleton";
import { Icon, PreviousIcon } from "../../../ui/icons";
import { useHideOffer, useOffer, useReportOffer, useWithdrawOffer } from "./queries";
import { ReasonDialog } from "./ReasonDialog";
import { failure } from "./errors";
import { categoryLabel, statusLabel } from "./words";
import "./market.css";

/**
 * One offer or need (/market/:offerId): what, from whom, for how much and until when. Pay opens
 * the dashboard's Send money with its price and title filled in, naming the offer (its owner is
 * told); Report tells the association; its owner edits or withdraws it, an account administrator hides it.
 */
export function OfferScreen({ offerId }: { offerId: string }) {
  const { i18n } = useLingui();
  const offer = useOffer(offerId);
  return (
    <main className="page market offer-page">
      <header className="page-header">
        <Link className="button small" to="/market">
          <Icon node={PreviousIcon} />
          {i18n._("Marketplace")}
        </Link>
      </header>
      {offer.isPending && <Skeleton rows={4} className="tx-skeleton" />}
      {offer.isError && <p className="notice error">{i18n._("This offer does not exist or is no longer listed.")}</p>}
      {offer.data && <Offer offer={offer.data} />}
    </main>
  );
}

function Offer({ offer }: { offer: OfferView }) {
  const { i18n } = useLingui();
  const fmt = useFormat();
  const navigate = useNavigate();
  const rights = useRights();
  const modals = useModals();
  const report = useReportOffer(offer.id);
  const hide = useHideOffer(offer.id);
  const withdraw = useWithdrawOffer();
  const status = statusLabel(i18n, offer.status);
  const pay = () => {
    if (!offer.walletId) return;
    const payload: QrPayload = {
      rp: offer.owner.memberId,
      rpb: offer.walletId,
      ...(offer.price ? { amount: offer.price } : {}),
      senderMemo: offer.title.slice(0, 50),
      offerId: offer.id,
    };
    void navigate("/dashboard", { state: { pay: payload } });
  };
  return (
    <article className="offer">
      <p className="offer-kind">
        {offer.kind === "offer" ? i18n._("Offer") : i18n._("Need")} · {categoryLabel(i18n, offer.category)}
      </p>
      <h1>{offer.title}</h1>
      {status && <p className="notice warning">{status}</p>}
      <p className="offer-price big">{offer.price && offer.currency ? fmt.money(offer.price, offer.currency) : i18n._("Price to agree")}</p>
      <p className="offer-owner-line">
        <Avatar name={offer.owner.name} photoUrl={offer.owner.photoUrl} />
        <span>{offer.owner.name}</span>
      </p>
      {offer.photos.length > 0 && (
        <div className="offer-photos">
          {offer.photos.map((p) => (
            <img key={p.id} src={p.url} alt={i18n._("Photo of {title}", { title: offer.title })} width={256} height={256} />
          ))}
        </div>
      )}
      {offer.description && <p className="offer-description">{offer.description}</p>}
      <p className="offer-dates">{i18n._("Listed until {date}", { date: fmt.date(new Date(offer.expiresAt)) })}</p>
      <div className="offer-actions">
        {offer.payable && (
          <button type="button" className="button primary" onClick={pay}>
            {i18n._("Pay")}
          </button>
        )}
        {offer.isMine && (
          <>
            <Link className="button" to={`/market/${offer.id}/edit`}>
              {i18n._("Edit or renew")}
            </Link>
            {offer.status !== "withdrawn" && (
              <button
                type="button"
                className="button"
                disabled={withdraw.isPending}
                onClick={() =>
                  withdraw.mutate(offer.id, {
                    onSuccess: () => toast.success(i18n._("Withdrawn from the marketplace")),
                    onError: (e) => toast.error(failure(e)),
                  })
                }
              >
                {i18n._("Withdraw")}
              </button>
            )}
          </>
        )}
        {!offer.isMine && !offer.reported && offer.status === "live" && (
          <button
            type="button"
            className="button"
            onClick={() =>
              modals.open((close) => (
                <ReasonDialog
                  title={i18n._("Report this offer")}
                  intro={i18n._("Tell the association what is wrong with it. Its author is not told who reported it.")}
                  confirm={i18n._("Report")}
                  onSend={async (reason) => {
                    await report.mutateAsync(reason);
                    toast.success(i18n._("Thank you: the association will look at it."));
                  }}
                  onClose={close}
                />
              ))
            }
          >
            {i18n._("Report")}
          </button>
        )}
        {offer.reported && <p className="hint">{i18n._("You reported this offer.")}</p>}
        {rights.accountValidation && offer.status !== "hidden" && !offer.isMine && (
          <button
            type="button"
            className="button danger"
            onClick={() =>
              modals.open((close) => (
                <ReasonDialog
                  title={i18n._("Hide this offer")}
                  intro={i18n._("It leaves the marketplace and can no longer be paid. Its author still sees it, with your reason.")}
                  confirm={i18n._("Hide")}
                  onSend={async (reason) => {
                    await hide.mutateAsync(reason);
                    toast.success(i18n._("Hidden"));
                  }}
                  onClose={close}
                />
              ))
            }
          >
            {i18n._("Hide")}
          </button>
        )}
      </div>
      {hide.isError && <p className="notice error">{tr(failure(hide.error))}</p>}
    </article>
  );
}
