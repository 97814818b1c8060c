import { readBudgets } from "../e2e/support/bundle";
import { lighthouseTable, runLighthouse, type LighthouseFigures } from "../e2e/support/lighthouse";
import { startServer } from "../e2e/support/server";

/**
 * `npm run bench:lighthouse` (after `npm run build`): Lighthouse's mobile preset on the login page,
 * a member's dashboard and the credit administrators' screen, each signed in through the login
 * page first. Prints the scores and LCP, TBT and CLS, the performance score against its goal, and
 * the host's CPU benchmark index (Lighthouse's), without which scores of two machines do not
 * compare; e2e/lighthouse.test.ts holds the budgets that do not depend on the host.
 *
 * `npm run bench:lighthouse -- --baseline <dir>` compares the member's dashboard of this build
 * with another build of the app (`<dir>`, an `apps/web/dist` made from an earlier commit), each
 * served by a server of its own on the same machine, measured in turns (baseline, this build,
 * baseline...) so that whatever else the machine does weighs on both alike: the median of each
 * figure, and this build's Total Blocking Time against the baseline's.
 */
const ALICE = { email: "alice@example.com", password: "Demo1234!" };
const baselineAt = process.argv.indexOf("--baseline");

if (baselineAt > 0) await compare(process.argv[baselineAt + 1]!, Number(process.env.LIGHTHOUSE_RUNS ?? 5));
else await scores();

async function scores() {
  const server = await startServer();
  try {
    const rows = [
      ...(await runLighthouse(server.url, ["/"])),
      ...(await runLighthouse(server.url, ["/dashboard"], ALICE)),
      ...(await runLighthouse(server.url, ["/admin/pending-credits"], { email: "credits@example.com", password: "Demo1234!" })),
    ];
    console.log(`\n${lighthouseTable(rows)}`);
    const goal = readBudgets().lighthouse.performanceGoal;
    for (const r of rows)
      console.log(
        `${r.page}: performance ${r.performance} (goal ${goal}, ${r.performance >= goal ? "met" : "not met"}; host benchmark index ${r.benchmarkIndex})`,
      );
  } finally {
    await server.stop();
    server.cleanup();
  }
}

async function compare(baselineDir: string, runs: number) {
  const [baseline, current] = await Promise.all([startServer({ WEB_DIR: baselineDir }), startServer()]);
  try {
    const figures: Record<"baseline" | "current", LighthouseFigures[]> = { baseline: [], current: [] };
    for (let i = 0; i < runs; i++) {
      for (const [name, server] of [
        ["baseline", baseline],
        ["current", current],
      ] as const) {
        const [f] = await runLighthouse(server.url, ["/dashboard"], ALICE, 1);
        figures[name].push({ ...f!, page: `/dashboard (${name} ${i + 1})` });
        console.log(`${name} run ${i + 1}: TBT ${f!.tbtMs} ms, performance ${f!.performance}, host benchmark index ${f!.benchmarkIndex}`);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const summary = (name: "baseline" | "current"): LighthouseFigures => {
      const rows = figures[name];
      return {
        page: `/dashboard, ${name} (median of ${runs})`,
        performance: median(rows.map((r) => r.performance)),
        accessibility: median(rows.map((r) => r.accessibility)),
        bestPractices: median(rows.map((r) => r.bestPractices)),
        lcpMs: median(rows.map((r) => r.lcpMs)),
        tbtMs: median(rows.map((r) => r.tbtMs)),
        cls: median(rows.map((r) => r.cls)),
        benchmarkIndex: median(rows.map((r) => r.benchmarkIndex)),
      };
    };
    const [b, c] = [summary("baseline"), summary("current")];
    console.log(`\n${lighthouseTable([b, c])}`);
    console.log(
      `\nTotal Blocking Time: ${c.tbtMs} ms against ${b.tbtMs} ms, ratio ${(c.tbtMs / Math.max(b.tbtMs, 1)).toFixed(2)} (host benchmark index ${c.benchmarkIndex})`,
    );
  } finally {
    await Promise.all([baseline.stop(), current.stop()]);
    baseline.cleanup();
    current.cleanup();
  }
}
