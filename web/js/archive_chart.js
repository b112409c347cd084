// A player's score over time, drawn by Chart.js (web/vendor/, pinned, with its licence;
// nothing here draws by hand). One line per game, since each game counts its own points;
// the plays stand in the order they were played, evenly spaced (a game night's three plays
// would otherwise sit on one spot), each labelled with its date. A click on a point opens
// that game's page.
//
// Chart.js is loaded when a chart is first drawn, as a module of the hub's own (the
// Content Security Policy allows the hub's scripts only); it sets the canvas's size through
// element.style, which the policy allows (only inline style attributes in markup are not).

import { t } from "./i18n.js";
import { day, gameHref, when } from "./archive_shared.js";

/** One color per game line, from the page's palette (base.css). */
const LINE_COLORS = ["#c8322b", "#2f6fd6", "#2e9a4a", "#e0a93a", "#6b6257"];

let loading = null;

/** Chart.js's `Chart` class, loaded once. */
export async function chartClass() {
  // the pinned file (web/vendor/README.md); a literal path, so the wheel's test finds it
  if (!loading) loading = import("../vendor/chart.js-4.6.1/chart.umd.min.js").then(() => globalThis.Chart);
  return loading;
}

/** The datasets: per game, its plays with a score as points `{x: play number, y: score}`. */
export function scoreSeries(plays) {
  const games = [...new Set(plays.map((p) => p.game))];
  return games.map((game, k) => {
    const mine = plays.map((p, n) => ({ p, n })).filter(({ p }) => p.game === game && p.score !== null);
    const color = LINE_COLORS[k % LINE_COLORS.length];
    return {
      label: mine.length ? mine[0].p.title : game,
      data: mine.map(({ p, n }) => ({ x: n + 1, y: p.score, id: p.id })),
      borderColor: color, backgroundColor: color, pointRadius: 6, pointHoverRadius: 9, tension: 0,
    };
  });
}

/** The x axis's ticks: one per play, or one every few plays where the axis has no room
 * for a date per play (about 90 px each). */
export function playTicks(count, width) {
  const room = Math.max(1, Math.floor(width / 90));
  const step = Math.max(1, Math.ceil(count / room));
  const ticks = [];
  for (let n = 1; n <= count; n += step) ticks.push({ value: n });
  return ticks;
}

/**
 * Draw `plays` (a player's page's, oldest first) on `canvas`; `go` opens a game's page.
 * Returns the chart (destroy it when the screen goes).
 */
export async function drawScores(canvas, plays, go) {
  const Chart = await chartClass();
  const datasets = scoreSeries(plays);
  return new Chart(canvas, {
    type: "line",
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: "nearest", intersect: true },
      scales: {
        x: {
          type: "linear", min: 0.5, max: plays.length + 0.5,
          afterBuildTicks: (axis) => { axis.ticks = playTicks(plays.length, axis.maxWidth); },
          ticks: { maxRotation: 0,
            callback: (value) => (plays[value - 1] ? day(plays[value - 1].date) : "") },
          title: { display: true, text: t("Games played, oldest first") },
        },
        y: { beginAtZero: true, title: { display: true, text: t("Score") } },
      },
      plugins: {
        legend: { display: datasets.length > 1 },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? when(plays[items[0].raw.x - 1].date) : ""),
            label: (item) => `${item.dataset.label}: ${item.raw.y}`,
          },
        },
      },
      onClick: (event, elements, chart) => {
        if (!elements.length) return;
        const { datasetIndex, index } = elements[0];
        go(gameHref(chart.data.datasets[datasetIndex].data[index].id));
      },
    },
  });
}
