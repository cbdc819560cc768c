// Live: while the page is visible, ask every 2 s whether the sheet moved on since the revision
// it shows (#live's data-revision). Unchanged, the answer is an empty 204; changed, it carries
// the totals, the rows and the actions, swapped in out of band, and the revision they show in
// its X-Sheet-Revision header (docs/using.md, "Live").

const REVISION = "X-Sheet-Revision";
let polling = false;
// The answer being swapped in is newer than the page: another phone moved the sheet on.
let moved = false;
// The hand form the poll asked about (openForm).
let askedFor = "";

function isPoll(event) {
  const config = event.detail.requestConfig || {};
  return Boolean(config.path && config.path.includes("/live/"));
}

// The hand form open under the sheet, named for the poll: a correction by its hand's key and the
// version it shows, a new hand by its number. The answer then says, in the form's notice
// (#stale), what changed on another phone meanwhile (views.stale_form).
function openForm() {
  const panel = document.querySelector("#entry .entry-panel");
  const form = panel && panel.querySelector("form.hand-form");
  if (!form || !document.getElementById("stale")) return "";
  const key = form.elements.key;
  const version = form.elements.version;
  if (version && version.value && key) {
    return `&hand=${encodeURIComponent(key.value)}&version=${encodeURIComponent(version.value)}`;
  }
  return panel.dataset.number ? `&number=${encodeURIComponent(panel.dataset.number)}` : "";
}

function poll() {
  const marker = document.getElementById("live");
  // Offline, a poll could only fail (and htmx would log it): the network's return asks at once.
  if (!marker || polling || document.visibilityState !== "visible" || !navigator.onLine) return;
  polling = true;
  moved = false;
  askedFor = openForm();
  // What else the page shows (a club night's draw, for a table's phone): the poll compares it too.
  const around = `&around=${encodeURIComponent(marker.dataset.around || "")}`;
  const url = `${marker.dataset.live}?revision=${encodeURIComponent(marker.dataset.revision)}${around}${askedFor}`;
  const done = () => {
    polling = false;
    // Moved on by another phone (the poll's answer was newer than what the page showed), not by
    // this phone's own save answered while the poll was on its way: the last action's message
    // goes, and an open new-hand form is renumbered (offline/renumber.js).
    if (moved) {
      const flash = document.getElementById("flash");
      if (flash && flash.firstChild) flash.replaceChildren();
      document.dispatchEvent(new CustomEvent("sheet:moved"));
    }
  };
  htmx.ajax("GET", url, { target: "#live", swap: "none" }).then(done, done);
}

// A poll's answer that an answer to a save overtook shows an older sheet: it would take the
// newer rows away (and the page would not ask again). It is dropped; the next poll asks. (An
// answer the offline queue dropped already, while a hand of it is on its way, is left alone.)
document.addEventListener("htmx:beforeSwap", (event) => {
  if (!isPoll(event) || !event.detail.shouldSwap) return;
  const header = event.detail.xhr && event.detail.xhr.getResponseHeader(REVISION);
  const marker = document.getElementById("live");
  if (header === null || !marker) return;
  const answer = Number(header);
  const shown = Number(marker.dataset.revision);
  if (answer < shown) event.detail.shouldSwap = false;
  else if (answer > shown) moved = true;
});

// A form replaced while the poll was on its way (saved, refused, reloaded) missed nothing the
// answer says: its notice is about the form that was asked about.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (target && target.id === "stale" && openForm() !== askedFor) event.detail.shouldSwap = false;
});

// A saved hand's answer brings its own row only, and the revision it made. When another phone's
// hand came in between (its row not shown here, the revision already past it), the page shows no
// whole revision, nor after the answers that follow (the offline queue's, one per hand), until
// an answer brings all the rows (#hands whole): meanwhile the poll asks for the whole sheet.
let whole = true;
document.addEventListener("htmx:oobAfterSwap", (event) => {
  const swapped = event.target;
  if (swapped && swapped.id === "hands") whole = true;
  if (!swapped || swapped.id !== "live") return;
  const rows = document.querySelectorAll("#hands > details.hand[id]:not(.pending)");
  const numbers = new Set([...rows].map((row) => Number(row.id.replace("hand-", ""))));
  const last = Math.max(0, ...numbers);
  const holes = numbers.size && last - Math.min(...numbers) + 1 !== numbers.size;
  if (holes || (last > 1 && !numbers.has(last - 1))) whole = false;
  if (!whole) swapped.dataset.revision = "0";
});
document.addEventListener("visibilitychange", poll);
window.addEventListener("online", poll);

// The browser tests set window.tarotIntervals (tests/e2e/conftest.py) instead of waiting.
setInterval(poll, (window.tarotIntervals && window.tarotIntervals.poll) || 2000);
