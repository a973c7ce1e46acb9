// The downloads-by-day chart, drawn by uPlot. Loaded by a dynamic import, so the console's first
// visit does not carry the charting library; its stylesheet is bundled with the statistics page.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const DAY_SECONDS = 86_400;
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];

/** Every day of the period with its count (days without downloads drawn as zero). */
export function DownloadsChart({ days, label }: { days: ReadonlyArray<{ date: string; count: number }>; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const x = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const y = days.map((day) => day.count);
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot({
      width: width(),
      height: 260,
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
      series: [{}, { label: 'Downloads', stroke: '#1f5fbf', width: 2, fill: 'rgba(31, 95, 191, 0.12)', points: { show: days.length <= 62 } }],
      // Whole days and whole downloads: the ticks never fall between two.
      axes: [
        { stroke: '#4d5867', incrs: [DAY_SECONDS, 2 * DAY_SECONDS, 7 * DAY_SECONDS, 14 * DAY_SECONDS, 28 * DAY_SECONDS, 91 * DAY_SECONDS] },
        { stroke: '#4d5867', incrs: WHOLE_STEPS },
      ],
      legend: { show: true },
    }, [x, y], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => { resize.disconnect(); plot.destroy(); };
  }, [days]);
  return <div class="chart" ref={container} role="img" aria-label={label} data-chart="downloads-by-day" />;
}
