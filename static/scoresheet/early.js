// Runs before the page paints: lets the stylesheet show the controls that need JavaScript.
document.documentElement.classList.replace("no-js", "js");
