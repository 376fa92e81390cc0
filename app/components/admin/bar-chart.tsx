// A bar chart drawn on the server as SVG, so no chart library is shipped to the browser. One bar
// per day; an optional second series is drawn over the first, narrower. The figures are in the table
// beside it, so the picture itself is described in one sentence for screen readers.

type Series = { label: string; values: number[]; className: string };

export function BarChart({
  title,
  days,
  series,
  format = String,
}: {
  title: string;
  days: string[];
  series: [Series] | [Series, Series];
  format?: (n: number) => string;
}) {
  const width = 600;
  const height = 220;
  const top = 26;
  const bottom = 30;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const step = width / Math.max(1, days.length);
  const y = (v: number) => top + (height - top - bottom) * (1 - v / max);
  const total = (s: Series) => s.values.reduce((a, b) => a + b, 0);
  const description = `${title}, last ${days.length} days: ${series.map((s) => `${s.label} ${format(total(s))} in all`).join("; ")}; highest day ${format(max)}.`;
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-3">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-semibold text-stone-900">{title}</span>
        <span className="text-stone-700">
          {series.map((s, i) => (
            <span key={s.label} className="ml-2 inline-flex items-center gap-1">
              <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-sm ${i === 0 ? "bg-heather-600" : "bg-emerald-600"}`} />
              {s.label}: {format(total(s))}
            </span>
          ))}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={description} className="mt-2 h-auto w-full">
        <line x1={0} x2={width} y1={height - bottom} y2={height - bottom} className="stroke-stone-300" />
        <text x={0} y={18} className="fill-stone-700" fontSize={18}>
          {format(max)}
        </text>
        {series.map((s, si) =>
          s.values.map((v, i) => {
            const barWidth = step * (si === 0 ? 0.7 : 0.4);
            const x = i * step + (step - barWidth) / 2;
            return v > 0 ? <rect key={`${si}-${days[i]}`} x={x} y={y(v)} width={barWidth} height={height - bottom - y(v)} className={s.className} /> : null;
          }),
        )}
        {/* The first, middle and last days: readable on a phone, where the chart is half its drawn width. */}
        {[0, Math.floor(days.length / 2), days.length - 1].map((i, n) => (
          <text
            key={days[i]}
            x={n === 0 ? 0 : n === 2 ? width : i * step + step / 2}
            y={height - 6}
            textAnchor={n === 0 ? "start" : n === 2 ? "end" : "middle"}
            className="fill-stone-700"
            fontSize={18}
          >
            {days[i]?.slice(5)}
          </text>
        ))}
      </svg>
    </figure>
  );
}
