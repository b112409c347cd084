// A game's charts beside its replay board, drawn by Chart.js (web/vendor/, pinned; nothing
// here draws by hand) from the series the game gives through the hub (GET <base>/replay,
// `charts`; companion/kit/charts.py): lines per round, bars side by side or stacked. Their
// words (titles, axes, the labels that are words) are the hub's English, translated here
// with the catalogs; players' names are shown as they are. Every point carries the replay
// position it stands for: a click on it moves the board there.

import { t } from "./i18n.js";
import { esc } from "./labels.js";
import { chartClass } from "./archive_chart.js";

/** One color per series, from the page's palette (base.css), then two more. */
const COLORS = ["#c8322b", "#2f6fd6", "#2e9a4a", "#e0a93a", "#6b6257", "#8e44ad", "#1d6b8f", "#b9ad99"];

const word = (text, isWord) => (isWord ? t(text) : text);

/** The cards of the charts (a canvas each, sized by its box). */
export function chartsHtml(charts) {
  if (!charts.length) return "";
  return charts.map((chart) => {
    const title = t(chart.title);
    return `<figure class="card replay-chart" data-testid="chart-card-${esc(chart.id)}">
        <figcaption><h3>${esc(title)}</h3></figcaption>
        <div class="chart-box"><canvas data-testid="chart-${esc(chart.id)}" role="img" aria-label="${esc(title)}"></canvas></div>
      </figure>`;
  }).join("");
}

/** Chart.js's configuration of a hub chart; `go(position)` moves the board. */
export function chartConfig(chart, go) {
  const stacked = chart.stacked;
  const datasets = chart.series.map((s, k) => {
    const color = COLORS[k % COLORS.length];
    return {
      label: word(s.label, s.word), data: s.values, positions: s.positions,
      borderColor: color, backgroundColor: chart.kind === "line" ? color : `${color}cc`,
      pointRadius: 5, pointHoverRadius: 8, pointHitRadius: 12, tension: 0, borderWidth: 2,
    };
  });
  return {
    type: chart.kind,
    data: { labels: chart.labels.map((l) => word(l, chart.label_words)), datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: "nearest", intersect: true },
      scales: {
        x: { stacked, title: { display: true, text: t(chart.x_title) } },
        y: { stacked, beginAtZero: true, title: { display: true, text: t(chart.y_title) },
          ticks: { precision: 0 } },
      },
      plugins: { legend: { display: true, position: "bottom" } },
      onClick: (event, elements, drawn) => {
        if (!elements.length) return;
        const { datasetIndex, index } = elements[0];
        go(drawn.data.datasets[datasetIndex].positions[index]);
      },
    },
  };
}

/** Draw every chart of `charts` into its canvas under `box`; returns the Chart objects
 * (destroy them when the screen goes). */
export async function drawCharts(box, charts, go) {
  if (!charts.length) return [];
  const Chart = await chartClass();
  return charts.map((chart) => new Chart(box.querySelector(`[data-testid="chart-${CSS.escape(chart.id)}"]`),
    chartConfig(chart, go)));
}
