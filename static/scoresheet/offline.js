// Offline and instant entry, loaded by every page (base.html). This file only says when the
// offline code loads (offline/start.js and its parts: the queue in IndexedDB, sending, the
// waiting rows, the preview with no network, and scoring.js): once the page is usable (idle time
// after it loaded), or at once when it is needed (the first hand form opened, the network lost
// or back, a page from the phone's copy). The first paint does not wait for it. Without
// JavaScript nothing here runs and every form posts as before.

let loading = null;

function load() {
  if (!loading) {
    loading = import("./offline/start.js").catch((error) => {
      loading = null;
      console.error("offline.js: the offline code did not load", error);
    });
  }
  return loading;
}

if (document.documentElement.dataset.offlineCopy || !navigator.onLine) load();
window.addEventListener("online", load);
window.addEventListener("offline", load);
// The hand form (or anything under the sheet) asked for: its Save is queued from then on.
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.target && event.detail.target.id === "entry") load();
});
const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1));
if (document.readyState === "complete") idle(load);
else window.addEventListener("load", () => idle(load), { once: true });
