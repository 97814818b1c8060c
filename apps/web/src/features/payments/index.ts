/** The payments' face: the links that pay across associations, the stages of a reconversion, a payment's retries and key. */
export { ACROSS, isAcross, payAcrossPath } from "./qr/across-link";
export { STAGES, stageLabel } from "./reconversion/stages";
export { RETRY_DELAYS_MS, newPaymentKey } from "./send/send-payment";
