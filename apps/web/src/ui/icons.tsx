/**
 * Icons drawn by the app, not taken from a font: a symbol character that a phone's fonts lack
 * shows as an empty box. Decorative: the button beside them says what they do.
 */

/** A QR code in a viewfinder, for the buttons that open the camera. */
export function ScanIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M3 8V3h5M16 3h5v5M21 16v5h-5M8 21H3v-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M7 7h4v4H7zM13 13h4v4h-4zM13 7h4v2h-4zM7 13h2v4H7z" fill="currentColor" />
    </svg>
  );
}
