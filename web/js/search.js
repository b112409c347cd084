// The search boxes' matching: what a few typed letters find, best first. Shared by the
// table screen (cards revealed, tiles, draws by hand) and the phone (award cards drawn).

/** Lowercase, accents off: "Café" and "cafe" match. */
export function fold(text) {
  return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** How well `text` matches the typed words (lower is better), or -1 when it does not:
 * 0 when the text starts with the first word, 1 when a word of it does, 2 anywhere. */
function score(text, words) {
  const t = fold(text);
  if (!words.every((w) => t.includes(w))) return -1;
  if (!words.length || t.startsWith(words[0])) return 0;
  return t.split(/[^a-z0-9$]+/).some((part) => part.startsWith(words[0])) ? 1 : 2;
}

/** The items whose text holds every typed word, best matches first (a title starting with
 * the letters before one with a word starting with them, then any), else in their order. */
export function ranked(items, query, textOf) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  return items.map((item, n) => [item, score(textOf(item), words), n])
    .filter(([, s]) => s >= 0)
    .sort((a, b) => a[1] - b[1] || a[2] - b[2])
    .map(([item]) => item);
}
