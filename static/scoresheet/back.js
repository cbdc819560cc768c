// Back closes the hand form. Opening a form on the sheet (new hand or correction) adds a history
// entry; Android's Back (or the browser's) closes the form, keeps what was typed as a draft
// (draft.js) and brings the sheet back to where it was when the form was asked for.

import { keep, offer, openForm } from "./draft.js";

let pushed = false; // this page added the open form's history entry
let backing = false; // this page went back over a closed form's entry, not yet arrived
let scrolled = null; // where the sheet was when the form was asked for

// What the last action said ("Hand 6 saved.") is about that action: gone when a form opens (it
// would sit above a form it is not about).
function clearFlash() {
  const flash = document.getElementById("flash");
  if (flash && flash.firstChild) flash.replaceChildren();
}

function push() {
  clearFlash();
  history.pushState({ tarotForm: true }, "");
  pushed = true;
}

// A form opens: its history entry, and the draft of a new hand.
function opened(form) {
  if (!pushed && !backing) push();
  offer(form);
}

// The form went (saved, cancelled, replaced by the sheet): its history entry goes too.
function closed() {
  if (!pushed) return;
  pushed = false;
  if (history.state && history.state.tarotForm) {
    backing = true;
    history.back();
  }
}

const entry = document.getElementById("entry");
if (entry) {
  new MutationObserver(() => {
    const form = openForm();
    if (form) opened(form);
    else closed();
  }).observe(entry, { childList: true, subtree: true });
  if (openForm()) opened(openForm());

  // A form (or anything under the sheet) asked for while none is open: where the sheet was.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.target === entry && !openForm()) scrolled = window.scrollY;
  });

  window.addEventListener("popstate", () => {
    const form = openForm();
    if (backing) {
      // Our own step back over a closed form's entry. A form opened meanwhile (Save, then at
      // once New hand) gets its entry now, so that Back does not close it by mistake.
      backing = false;
      if (form && !pushed) push();
      return;
    }
    if (!form || !pushed) return;
    pushed = false;
    keep(form);
    entry.replaceChildren();
    if (scrolled !== null) window.scrollTo(0, scrolled);
    scrolled = null;
  });
}
