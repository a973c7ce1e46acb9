// The downloads-by-day chart, drawn by uPlot. Loaded by a dynamic import, so the console's first
// visit does not carry the charting library; its stylesheet is bundled with the statistics page.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

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
      axes: [{ stroke: '#4d5867' }, { stroke: '#4d5867' }],
      legend: { show: true },
    }, [x, y], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => { resize.disconnect(); plot.destroy(); };
  }, [days]);
  return <div class="chart" ref={container} role="img" aria-label={label} data-chart="downloads-by-day" />;
}
