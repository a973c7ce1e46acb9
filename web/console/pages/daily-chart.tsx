// Charts of one or more counts per UTC day, drawn by uPlot. Loaded by a dynamic import, so the console's
// first visit does not carry the charting library; its stylesheet is bundled with the statistics page.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const DAY_SECONDS = 86_400;
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];

/** One line of a chart: a count for each of the chart's days. */
export interface DailySeries {
  label: string;
  /** Darker than the page's contrast minimum against white. */
  color: string;
  /** Drawn dashed, so a line beneath it with the same counts still shows. */
  dashed?: boolean;
  counts: readonly number[];
}

export interface DailyChartProps {
  /** Every day of the period, oldest first (days without counts drawn as zero). */
  dates: readonly string[];
  series: readonly DailySeries[];
  /** The chart as words, for those who cannot see it. */
  label: string;
  /** Names the chart in the page (`data-chart`). */
  name: string;
}

export function DailyChart({ dates, series, label, name }: DailyChartProps) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const x = dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000);
    const width = () => Math.max(280, element.clientWidth);
    // A single line is filled below; several are lines only, so none hides another.
    const filled = series.length === 1;
    const plot = new uPlot({
      width: width(),
      height: 260,
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
      series: [{}, ...series.map((s) => ({
        label: s.label, stroke: s.color, width: 2, fill: filled ? `${s.color}1f` : undefined, dash: s.dashed ? [6, 4] : undefined, points: { show: dates.length <= 62 },
      }))],
      // Whole days and whole counts: the ticks never fall between two.
      axes: [
        { stroke: '#4d5867', incrs: [DAY_SECONDS, 2 * DAY_SECONDS, 7 * DAY_SECONDS, 14 * DAY_SECONDS, 28 * DAY_SECONDS, 91 * DAY_SECONDS] },
        { stroke: '#4d5867', incrs: WHOLE_STEPS },
      ],
      legend: { show: true },
    }, [x, ...series.map((s) => [...s.counts])], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => { resize.disconnect(); plot.destroy(); };
  }, [dates, series]);
  return <div class="chart" ref={container} role="img" aria-label={label} data-chart={name} />;
}
