// Uploads show their progress. A form marked data-upload is sent by htmx (hx-post, multipart);
// its <progress> follows the file's bytes as they leave, then turns indeterminate while the
// server checks the file. Without JavaScript the form posts as a plain form.
// htmx fires htmx:xhr:progress for the upload, then for the answer: once every byte is sent,
// what follows is the answer's.
const sent = new WeakSet();

document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.target.closest("form[data-upload]");
  if (form) sent.delete(form);
});

document.addEventListener("htmx:xhr:progress", (event) => {
  const form = event.target.closest("form[data-upload]");
  const bar = form && form.querySelector("progress");
  if (!bar || sent.has(form) || !event.detail.lengthComputable) return;
  bar.hidden = false;
  if (event.detail.loaded < event.detail.total) {
    bar.max = event.detail.total;
    bar.value = event.detail.loaded;
  } else {
    sent.add(form);
    bar.removeAttribute("value");
  }
});
