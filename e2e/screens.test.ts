import { english, french } from "./pages/app";
import { screensTour } from "./screens-tour";

/**
 * Every route and dialog on a 360×740 touch phone, in English and in French, light and dark
 * (e2e/screens-tour.ts; the same at 1280×800 is screens-wide.test.ts).
 */
screensTour([
  { lang: "en", phone: true, t: english },
  { lang: "fr", phone: true, t: french },
]);
