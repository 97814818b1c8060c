import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface FlowsChartSeries {
  label: string;
  /** The CSS custom property of its colour (styles.css), read again when the theme changes. */
  token: string;
  /** A dash pattern, so that the lines differ by more than their colour. */
  dash?: number[];
  /** One value per bucket, oldest first. */
  values: number[];
}

export interface FlowsChartProps {
  /** Each bucket as the axis under the chart names it ("Nov 26"). */
  ticks: string[];
  /** Each bucket as the legend names it ("November 2026"). */
  labels: string[];
  /** What the legend calls the buckets. */
  xLabel: string;
  series: FlowsChartSeries[];
  /** A value as the legend writes it. */
  value: (v: number) => string;
  /** A value as the vertical axis writes it (short). */
  axisValue: (v: number) => string;
}

const HEIGHT = 240;
/** Room for one label under the chart, in CSS pixels: more buckets than fit are labelled every few. */
const TICK_SPACE = 64;
const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/**
 * The volumes of a period's buckets as lines, drawn with uPlot on a canvas sized to
 * its container. Colours come from the design tokens, so the chart follows the light and dark
 * themes and an association's own. The canvas is for the eye: the screen's table says the same
 * to everyone, and the container (FiguresScreen) names it as an image.
 */
export function FlowsChart(props: FlowsChartProps) {
  const box = useRef<HTMLDivElement>(null);
  // The formatters change with each render; the chart is drawn again only when its data does.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const key = JSON.stringify([props.ticks, props.labels, props.xLabel, props.series]);

  useEffect(() => {
    const el = box.current!;
    const { ticks, labels, xLabel, series } = latest.current;
    const xs = ticks.map((_, i) => i);
    let plot: uPlot | null = null;

    const draw = () => {
      plot?.destroy();
      const css = getComputedStyle(el);
      const color = (token: string) => css.getPropertyValue(token).trim();
      const text = color("--default-color");
      const line = color("--border-color");
      const axis = { stroke: text, font: FONT, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
      plot = new uPlot(
        {
          width: el.clientWidth,
          height: HEIGHT,
          cursor: { drag: { x: false, y: false }, points: { size: 8 } },
          // The series' names only: values under a moving cursor would be lost on a phone, and the table gives them all.
          legend: { live: false },
          scales: {
            x: { time: false, range: () => [-0.5, Math.max(xs.length - 0.5, 0.5)] },
            y: { range: (_u, _min, max) => uPlot.rangeNum(0, max > 0 ? max : 1, 0.1, true) },
          },
          axes: [
            {
              ...axis,
              // Whole buckets only, as many as fit side by side.
              splits: (u) => {
                const every = Math.max(1, Math.ceil(xs.length / Math.max(1, Math.floor(u.width / TICK_SPACE))));
                return xs.filter((i) => (xs.length - 1 - i) % every === 0);
              },
              values: (_u, splits) => splits.map((i) => ticks[i] ?? ""),
              grid: { show: false },
            },
            { ...axis, size: 56, values: (_u, splits) => splits.map((v) => latest.current.axisValue(v)) },
          ],
          series: [
            { label: xLabel, value: (_u, i) => (i === null ? "" : (labels[i] ?? "")) },
            ...series.map((s): uPlot.Series => ({
              label: s.label,
              stroke: color(s.token),
              width: 2,
              ...(s.dash ? { dash: s.dash } : {}),
              // Dots where the buckets are few enough to tell apart (uPlot's own rule), always for a lone one.
              points: { size: 6, fill: color(s.token) },
              value: (_u, v) => (v === null ? "" : latest.current.value(v)),
            })),
          ],
        },
        [xs, ...series.map((s) => s.values)],
        el,
      );
    };
    draw();

    let width = el.clientWidth;
    const resize = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      plot?.setSize({ width, height: HEIGHT });
    });
    resize.observe(el);
    // The colours are the theme's: a device turning dark draws the chart again in its tokens.
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    dark.addEventListener("change", draw);
    return () => {
      resize.disconnect();
      dark.removeEventListener("change", draw);
      plot?.destroy();
    };
  }, [key]);

  return <div ref={box} className="flows-chart-plot" />;
}
