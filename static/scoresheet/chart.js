// The chart is drawn by the server; when the sheet moves on (a new revision swapped in, by any
// answer: a save, the live poll, the offline queue), it is fetched again, but only while its fold
// is open (or when it next opens), so that saving a hand stays small and fast.

let stale = false;
let revision = (document.getElementById("live") || { dataset: {} }).dataset.revision;

function refresh() {
  const fold = document.querySelector("details.chart[data-refresh]");
  if (!fold) return;
  if (!fold.open) {
    stale = true;
    return;
  }
  stale = false;
  htmx.ajax("GET", fold.dataset.refresh, { target: "#chart", swap: "outerHTML" });
}

document.addEventListener("htmx:oobAfterSwap", (event) => {
  const marker = event.target;
  if (!marker || marker.id !== "live" || marker.dataset.revision === revision) return;
  revision = marker.dataset.revision;
  refresh();
});
document.addEventListener(
  "toggle",
  (event) => {
    if (event.target.matches("details.chart") && event.target.open && stale) refresh();
  },
  true
);
