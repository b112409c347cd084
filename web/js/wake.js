// Keep the tablet awake while a game is open on its table screen (issue 38): a long turn
// must not put the screen to sleep in the middle of the table. The Screen Wake Lock API,
// where the browser offers it (a secure context: https, or the hub on localhost); the
// browser drops the lock when the page is hidden, so it is asked again when it shows.

let wanted = false;
let lock = null;
let asking = false;

async function take() {
  if (!wanted || lock || asking || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const got = await navigator.wakeLock.request("screen");
    got.addEventListener("release", () => { if (lock === got) lock = null; shown(); });
    if (wanted) lock = got;
    else got.release().catch(() => {}); // the game ended while the browser answered
  } catch {
    lock = null; // refused (battery saver, no permission): the screen sleeps as it would
  } finally {
    asking = false;
  }
  shown();
}

/** Whether the page holds the lock, for tests and curious people. */
function shown() {
  window.popcornAwake = Boolean(lock);
}

document.addEventListener("visibilitychange", () => { take(); });

/** Hold the screen awake (`on`: a game is open) or let it sleep again (the game is over,
 * the screen is left). Safe to call on every state push. */
export function keepAwake(on) {
  wanted = on;
  if (on) {
    take();
  } else if (lock) {
    const held = lock;
    lock = null;
    held.release().catch(() => {});
  }
  shown();
}
