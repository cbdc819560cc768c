// Loaded with the offline code (offline.js): when the first hand form is asked for, or once the
// page is usable. It finds a form already open when it arrives.
// Back closes the hand form (issue 22). Opening the form on the sheet (new hand or correction)
// adds a history entry; Android's Back (or the browser's) closes the form and leaves the sheet
// where it was. What was typed in a new hand is kept on this phone as a draft, offered again by
// the next "New hand" until it is saved or discarded.
(function () {
  "use strict";

  var pushed = false; // this page added the open form's history entry
  var backing = false; // this page went back over a closed form's entry, not yet arrived
  var DRAFT = "tarot-draft:" + location.pathname;
  // What a player fills in; the form's own bookkeeping (key, version, CSRF) is not a draft.
  var FILLED = "input:not([type=hidden]), select, textarea";

  function panel() {
    return document.querySelector("#entry .entry-panel form.hand-form");
  }
  function isNewHand(form) {
    return !(form.elements.version && form.elements.version.value);
  }

  function draftOf(form) {
    var fields = {};
    var typed = false;
    Array.prototype.forEach.call(form.querySelectorAll(FILLED), function (field) {
      if (!field.name) return;
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked !== field.defaultChecked) typed = true;
        if (field.checked) (fields[field.name] = fields[field.name] || []).push(field.value);
      } else {
        if (field.value !== field.defaultValue) typed = true;
        fields[field.name] = [field.value];
      }
    });
    return typed ? fields : null;
  }
  function keep(form) {
    if (!isNewHand(form)) return;
    var fields = draftOf(form);
    try {
      if (fields) localStorage.setItem(DRAFT, JSON.stringify(fields));
    } catch (error) {
      console.warn("The draft could not be kept on this phone:", error);
    }
  }
  function kept() {
    try {
      return JSON.parse(localStorage.getItem(DRAFT) || "null");
    } catch (error) {
      console.warn("The draft kept on this phone could not be read:", error);
      return null;
    }
  }
  function forget() {
    try {
      localStorage.removeItem(DRAFT);
    } catch (error) {
      console.warn("The draft could not be removed:", error);
    }
  }

  function restore(form, fields) {
    Array.prototype.forEach.call(form.querySelectorAll(FILLED), function (field) {
      if (!field.name) return;
      var values = fields[field.name] || [];
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = values.indexOf(field.value) !== -1;
      } else if (values.length) {
        field.value = values[0];
      }
    });
    var note = form.querySelector("[data-draft-note]");
    if (note) note.hidden = false;
    // The preview (and the form's own choices) follow what came back. htmx sets up what it
    // inserts only when it settles: set the form up now (htmx.process does it once).
    if (window.htmx) htmx.process(form.closest(".entry-panel") || form);
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // What the last action said ("Hand 6 saved.") is about that action: gone when the sheet moves
  // on from another phone, and when a form opens (it would sit above a form it is not about).
  function clearFlash() {
    var flash = document.getElementById("flash");
    if (flash && flash.firstChild) flash.replaceChildren();
  }
  document.addEventListener("sheet:moved", clearFlash);

  // A form opens: its history entry, and the draft of a new hand.
  function opened(form) {
    if (!pushed && !backing) {
      clearFlash();
      history.pushState({ tarotForm: true }, "");
      pushed = true;
    }
    if (form.dataset.draftChecked) return;
    form.dataset.draftChecked = "1";
    var fields = isNewHand(form) && !form.querySelector(".form-errors, .invalid") && kept();
    if (fields) restore(form, fields);
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

  var entry = document.getElementById("entry");
  if (!entry || !window.history || !history.pushState) return;
  new MutationObserver(function () {
    var form = panel();
    if (form) opened(form);
    else closed();
  }).observe(entry, { childList: true, subtree: true });
  if (panel()) opened(panel());

  document.addEventListener(
    "click",
    function (event) {
      var discard = event.target.closest("[data-discard-draft]");
      if (discard) {
        var form = discard.closest("form");
        forget();
        form.reset();
        // The note stays where it is, saying what happened: nothing below it moves.
        var note = discard.closest("[data-draft-note]");
        note.querySelector("[data-draft-text]").textContent = note.dataset.discarded;
        discard.hidden = true;
        form.dispatchEvent(new Event("change", { bubbles: true }));
      }
    },
    true
  );
  // Typed so far, kept as it goes (a phone may lock, a tab may be closed).
  document.addEventListener("change", function (event) {
    var form = panel();
    if (form && form.contains(event.target)) keep(form);
  });
  // Saved (or queued) or passed: the draft is done with. Refused, the form comes back with it.
  window.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var by = event.submitter && event.submitter.name;
      if (form.matches("#entry form.hand-form") && isNewHand(form) && (by === "save" || by === "passed")) {
        forget();
      }
    },
    true
  );
  window.addEventListener("popstate", function () {
    var form = panel();
    if (backing) {
      // Our own step back over a closed form's entry. A form opened meanwhile (Save, then at
      // once New hand) gets its entry now, so that Back does not close it by mistake.
      backing = false;
      if (form && !pushed) {
        clearFlash();
        history.pushState({ tarotForm: true }, "");
        pushed = true;
      }
      return;
    }
    if (!form || !pushed) return;
    pushed = false;
    keep(form);
    entry.replaceChildren();
    // Where the sheet was when the form was asked for (app.js keeps it, even for a form asked
    // for before this file arrived).
    if (entry.dataset.scrolled !== undefined) window.scrollTo(0, Number(entry.dataset.scrolled));
    delete entry.dataset.scrolled;
  });
})();
