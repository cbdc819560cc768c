// Copy buttons for the links (templates/_copy_button.html), shown by app.js where this browser
// can copy: with the Clipboard API (secure pages), or execCommand("copy") on a plain-http LAN
// page. "Copied" is announced by its status region.

function copyBySelection(input) {
  input.focus();
  input.select();
  try {
    return document.execCommand("copy");
  } catch (error) {
    return false;
  }
}

/** Copy ``input``'s text; resolves to whether it was copied. */
export function copy(input) {
  if (navigator.clipboard && navigator.clipboard.writeText) {
    return navigator.clipboard.writeText(input.value).then(
      () => true,
      () => copyBySelection(input)
    );
  }
  return Promise.resolve(copyBySelection(input));
}

/** Say ``text`` in the status region (emptied first, so that saying it again is announced). */
export function say(status, text) {
  if (!status) return;
  status.textContent = "";
  setTimeout(() => {
    status.textContent = text || "";
  }, 50);
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const input = document.getElementById(button.dataset.copy);
  const status = button.parentElement.querySelector(".copy-status");
  if (!input || !status) return;
  copy(input).then((done) => say(status, done ? status.dataset.copied : status.dataset.failed));
});
