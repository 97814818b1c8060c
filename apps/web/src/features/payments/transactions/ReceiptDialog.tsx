import type { TransactionView } from "@mutua/domain";
import { ReconversionDetailDialog } from "../reconversion/ReconversionDetailDialog";
import { TransactionDetailDialog } from "./TransactionDetailDialog";

/**
 * A transaction's receipt: a reconversion's with its stages, any other with its details and PDF.
 * Loaded when first opened (`lazy`), not with the dashboard or the notification centre that open it.
 */
export default function ReceiptDialog({ tx, confirmation, onClose }: { tx: TransactionView; confirmation?: boolean; onClose: () => void }) {
  return tx.isReconversion ? (
    <ReconversionDetailDialog tx={tx} onClose={onClose} />
  ) : (
    <TransactionDetailDialog tx={tx} confirmation={confirmation} onClose={onClose} />
  );
}
