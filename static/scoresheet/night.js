// The club night's page and its screen: follow the night live, and count the round's minutes
// down.

// Every 2 s while the page is visible, ask whether the night moved on since the version it
// shows: an empty 204 when not, else the live region, swapped in whole.
let polling = false;

function poll() {
  const region = document.getElementById("night-live");
  if (!region || polling || document.visibilityState !== "visible") return;
  polling = true;
  let url = region.dataset.live;
  url += `${url.includes("?") ? "&" : "?"}version=${encodeURIComponent(region.dataset.version)}`;
  const done = () => {
    polling = false;
  };
  htmx.ajax("GET", url, { target: "#night-live", swap: "outerHTML" }).then(done, done);
}
// The browser tests set window.tarotIntervals (tests/e2e/conftest.py) instead of waiting.
setInterval(poll, window.tarotIntervals?.poll || 2000);
document.addEventListener("visibilitychange", poll);

// The timer: the seconds left when the region was drawn, counted down from then.
const since = new WeakMap();

function tick() {
  const now = Date.now();
  document.querySelectorAll("[data-left]").forEach((clock) => {
    const left = parseInt(clock.dataset.left, 10);
    if (!since.has(clock)) since.set(clock, now);
    const seconds = Math.max(0, left - Math.floor((now - since.get(clock)) / 1000));
    clock.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    clock.classList.toggle("over", seconds === 0);
  });
}
setInterval(tick, 1000);
tick();
document.addEventListener("htmx:afterSettle", tick);
