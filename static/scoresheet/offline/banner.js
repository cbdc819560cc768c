// What the page says about the network: a banner while the phone is offline or the page is the
// phone's copy (with the time it was fetched), and a message in #flash for what needs the
// network. Back online, a page from the phone's copy shows the server's sheet again.

import { format, texts } from "./texts.js";

/** The offline banner, as the network and the page are now. */
export function banner() {
  let box = document.getElementById("offline-banner");
  const copy = document.documentElement.dataset.offlineCopy;
  let text = null;
  if (copy) {
    const when = new Date(copy);
    const time = Number.isNaN(when.getTime())
      ? copy
      : new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
          dateStyle: "short",
          timeStyle: "short",
        }).format(when);
    text = format(texts.offline_copy, { time });
  } else if (!navigator.onLine) {
    text = texts.offline_now;
  }
  if (!text) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = document.createElement("p");
    box.id = "offline-banner";
    box.className = "offline-banner";
    box.setAttribute("role", "status");
    const main = document.getElementById("main");
    if (main) main.prepend(box);
  }
  box.textContent = text;
}

/** A warning in the page's message area (#flash). */
export function flash(text) {
  const box = document.getElementById("flash");
  if (!box) return;
  const message = document.createElement("p");
  message.className = "message warning";
  message.setAttribute("role", "alert");
  message.textContent = text;
  box.replaceChildren(message);
}

/** Back online on a page from the phone's copy: the server's regions of the sheet (the live
 * poll's answer for a sheet shown at no revision), and the page is no longer the copy. */
export async function refreshFromServer() {
  if (!document.documentElement.dataset.offlineCopy || !navigator.onLine) return;
  const marker = document.getElementById("live");
  try {
    if (marker) {
      // Answered like any poll (live.js, hands.js): the totals, rows and actions, out of band.
      await htmx.ajax("GET", `${marker.dataset.live}?revision=0`, { target: "#live", swap: "none" });
    } else {
      const response = await fetch(location.href, { credentials: "same-origin" });
      if (!response.ok) return;
    }
    delete document.documentElement.dataset.offlineCopy;
    banner();
  } catch (error) {
    // Still unreachable: the next "online" event tries again.
    console.info("offline: the server is still unreachable", error);
  }
}
