// What was typed in a new hand is kept on this phone as a draft, offered again by the next "New
// hand" until it is saved, discarded or cancelled (a phone may lock, a tab may be closed, Back may
// close the form: back.js; Cancel means cancel).

const DRAFT = `tarot-draft:${location.pathname}`;
// What a player fills in; the form's own bookkeeping (key, version, CSRF) is not a draft.
const FILLED = "input:not([type=hidden]), select, textarea";

/** The hand form open under the sheet, if any. */
export function openForm() {
  return document.querySelector("#entry .entry-panel form.hand-form");
}

function isNewHand(form) {
  return !(form.elements.version && form.elements.version.value);
}

function changed(field) {
  if (field.type === "radio" || field.type === "checkbox") return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

function draftOf(form) {
  const fields = {};
  let typed = false;
  for (const field of form.querySelectorAll(FILLED)) {
    if (!field.name) continue;
    if (changed(field)) typed = true;
    if (field.type === "radio" || field.type === "checkbox") {
      if (field.checked) (fields[field.name] = fields[field.name] || []).push(field.value);
    } else {
      fields[field.name] = [field.value];
    }
  }
  return typed ? fields : null;
}

/** Keep what was typed in ``form``, a new hand's, on this phone. */
export function keep(form) {
  if (!isNewHand(form)) return;
  const fields = draftOf(form);
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
  for (const field of form.querySelectorAll(FILLED)) {
    if (!field.name) continue;
    const values = fields[field.name] || [];
    if (field.type === "radio" || field.type === "checkbox") {
      field.checked = values.includes(field.value);
    } else if (values.length) {
      field.value = values[0];
    }
  }
  // What came back is in sight: a folded section ("Announcements") that holds a value opens.
  for (const field of form.querySelectorAll(FILLED)) {
    const section = changed(field) && field.closest("details");
    if (section) section.open = true;
  }
  const note = form.querySelector("[data-draft-note]");
  if (note) note.hidden = false;
  // The preview (and the form's own choices) follow what came back. htmx sets up what it inserts
  // only when it settles: set the form up now (htmx.process does it once).
  htmx.process(form.closest(".entry-panel") || form);
  form.dispatchEvent(new Event("change", { bubbles: true }));
}

// The draft of each form offered once, when it opens.
const offered = new WeakSet();

/** A new hand's form opened: what was typed before comes back (unless the server sent the form
 * back with problems: it holds what was sent). */
export function offer(form) {
  if (offered.has(form)) return;
  offered.add(form);
  const fields = isNewHand(form) && !form.querySelector(".form-errors, .invalid") && kept();
  if (fields) restore(form, fields);
}

document.addEventListener(
  "click",
  (event) => {
    const discard = event.target.closest("[data-discard-draft]");
    if (!discard) return;
    const form = discard.closest("form");
    forget();
    form.reset();
    // The note stays where it is, saying what happened: nothing below it moves.
    const note = discard.closest("[data-draft-note]");
    note.querySelector("[data-draft-text]").textContent = note.dataset.discarded;
    discard.hidden = true;
    form.dispatchEvent(new Event("change", { bubbles: true }));
  },
  true
);
// Cancel forgets the draft of the new hand it closes (entry.js closes the form after this).
document.addEventListener(
  "click",
  (event) => {
    const cancel = event.target.closest("[data-cancel]");
    const form = cancel && openForm();
    if (form && form.contains(cancel) && isNewHand(form)) forget();
  },
  true
);
// Typed so far, kept as it goes.
document.addEventListener("change", (event) => {
  const form = openForm();
  if (form && form.contains(event.target)) keep(form);
});
// Saved (or queued) or passed: the draft is done with. Refused, the form comes back with it.
window.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    const by = event.submitter && event.submitter.name;
    if (form.matches("#entry form.hand-form") && isNewHand(form) && (by === "save" || by === "passed")) {
      forget();
    }
  },
  true
);
