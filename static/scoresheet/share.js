// "Share the results" (summary.html) hands the text (the standings and the read-only link) to
// the phone's share sheet (Web Share API), with the summary's picture where the browser can share
// files; elsewhere it copies the text. Print (print.html). app.js shows each button where this
// browser can use it.

import { copy, say } from "./copy.js";

let picture = null; // the summary's PNG as a File, once fetched, where files can be shared

// Fetched ahead: the share sheet must open within the tap's user activation.
function fetchPicture(button) {
  if (!navigator.canShare || !button.dataset.shareImage || typeof File === "undefined") return;
  fetch(button.dataset.shareImage, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.blob() : null))
    .then((blob) => {
      if (!blob) return;
      const file = new File([blob], button.dataset.shareFile || "summary.png", { type: "image/png" });
      if (navigator.canShare({ files: [file] })) picture = file;
    })
    .catch((error) => {
      // The text is shared without the picture.
      console.info("share: the summary's picture was not fetched", error);
      picture = null;
    });
}

function copyInstead(source, status) {
  copy(source).then((done) => say(status, status && status.dataset[done ? "copied" : "failed"]));
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-share]");
  if (button) {
    const source = document.getElementById(button.dataset.share);
    const status = button.parentElement.querySelector(".copy-status");
    if (!source) return;
    if (!navigator.share) {
      copyInstead(source, status);
      return;
    }
    const data = { title: button.dataset.shareTitle, text: source.value };
    if (picture) data.files = [picture];
    navigator.share(data).then(
      () => say(status, status && status.dataset.shared),
      (error) => {
        // Closed by the person: nothing to do. Refused otherwise: copy the text instead.
        if (error && error.name === "AbortError") return;
        copyInstead(source, status);
      }
    );
    return;
  }
  if (event.target.closest("button[data-print]")) window.print();
});

const button = document.querySelector("button[data-share]");
if (button && navigator.share) fetchPicture(button);
