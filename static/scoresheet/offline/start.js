// Offline and instant entry, loaded by offline.js once the page is usable, or when it is needed;
// without JavaScript nothing here runs and every form posts as before.
//
// - The service worker (sw.js) keeps the app's files and every page opened on the phone.
// - A page served from the phone's copy says so, with the time it was fetched (banner.js).
// - Saving a new hand on the sheet puts it in a queue on the phone (queue.js, save.js) and shows
//   its row and the new totals at once (waiting.js), scored by scoring.js under the session's
//   rules; the queue is then sent in order (send.js), now or when the network returns.
// - With no network the preview is scored on the phone (preview.js); corrections, deletions and
//   undo need the network: offline, the page says so.

import { banner, refreshFromServer } from "./banner.js";
import { loadKeys } from "./queue.js";
import { renumber } from "./renumber.js";
import { queueIsReady } from "./save.js";
import { sending, sync } from "./send.js";
import { readState, state } from "./state.js";
import { render } from "./waiting.js";

// Between looks at the queue while hands wait; the browser tests set window.tarotIntervals.
const intervals = { queue: 20000, ...(window.tarotIntervals || {}) };
const worker = document.querySelector("script[data-worker]");

async function registerWorker() {
  if (!("serviceWorker" in navigator) || !worker) return;
  try {
    const controlled = Boolean(navigator.serviceWorker.controller);
    await navigator.serviceWorker.register(worker.dataset.worker, { scope: "/" });
    const ready = await navigator.serviceWorker.ready;
    // This page, and the hand form of a sheet, kept for offline use (once: a page the worker
    // served is kept already).
    const message = { type: "keep", pages: controlled ? [] : [location.href], fragments: [] };
    if (state && state.hand_url) message.fragments.push(state.hand_url);
    (navigator.serviceWorker.controller || ready.active).postMessage(message);
  } catch (error) {
    // No worker (an insecure origin, a private window): the app works online as before.
    console.info("offline: no service worker", error);
  }
}

window.addEventListener("online", async () => {
  banner();
  await sync();
  await refreshFromServer();
});
window.addEventListener("offline", banner);

async function start() {
  banner();
  if (readState() && state.token) {
    try {
      await loadKeys();
      queueIsReady();
    } catch (error) {
      // No IndexedDB (a private window in an old browser): Save posts as before.
      console.warn("offline: no queue on this phone", error);
    }
    await render();
    sync();
    setInterval(() => {
      if (!sending()) sync();
    }, intervals.queue);
  }
  await refreshFromServer();
  registerWorker();
  // A hand form opened before this code loaded: numbered as the queue says.
  renumber();
}

start();
