import { english, french } from "./pages/app";
import { screensTour } from "./screens-tour";

/**
 * Every route and dialog at 1280×800, in English and in French, light and dark (e2e/screens-tour.ts;
 * the same on a phone is screens.test.ts).
 */
screensTour([
  { lang: "en", phone: false, t: english },
  { lang: "fr", phone: false, t: french },
]);
