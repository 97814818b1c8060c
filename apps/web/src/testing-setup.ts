import { configure } from "@testing-library/react";

// Testing Library's `findBy…` and `waitFor` give up after one second by default: on a loaded CI
// machine (two cores, a browser suite beside), a screen that loads a lazy chunk and answers a
// query can take longer, and a test then fails for the machine's speed, not the app's. Five
// seconds, well inside each test's own timeout: a screen that never shows still fails.
configure({ asyncUtilTimeout: 5000 });
