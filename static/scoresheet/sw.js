// The service worker (served at /sw.js by scoresheet/offline.py, which puts CONFIG above):
// keeps the app's files and every page this phone opened, so that a sheet opens with no network.
// Pages and fragments: network first, the last copy when the network fails (or is too slow).
// Static files: the kept copy at once, refreshed in the background. Writes (POST) never stop
// here: the offline code queues hands itself.
/* global CONFIG */
"use strict";

const FILES = "tarot-files-" + CONFIG.version;
const PAGES = "tarot-pages";
// A page served from the cache tells its script when it was fetched.
const FETCHED_AT = "X-Fetched-At";
// After this long without an answer, the last copy is shown (and updated when the answer comes).
const PATIENCE = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const files = await caches.open(FILES);
      await files.addAll(CONFIG.shell);
      // The home page too, when the network allows (the app's start page offline).
      await keep(CONFIG.home, false, true).catch((error) => console.info("sw: home page not kept", error));
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("tarot-files-") && name !== FILES) await caches.delete(name);
      }
      await self.clients.claim();
    })()
  );
});

// The page asks to keep itself (opened before this worker controlled it) and the hand form.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep") return;
  event.waitUntil(
    Promise.all([
      ...(data.pages || []).map((url) => keep(url, false, data.refresh)),
      ...(data.fragments || []).map((url) => keep(url, true, data.refresh)),
    ]).catch((error) => console.info("sw: a page was not kept", error))
  );
});

function cacheKey(url, fragment) {
  // htmx asks the same URL for a fragment (HX-Request): kept apart from the whole page.
  if (!fragment) return url;
  const key = new URL(url, self.location.origin);
  key.searchParams.set("__fragment", "1");
  return key.href;
}

function storable(response) {
  const type = response.headers.get("Content-Type") || "";
  return response.ok && response.type === "basic" && type.startsWith("text/html") &&
    !response.headers.has("Content-Disposition");
}

async function store(key, response) {
  const headers = new Headers(response.headers);
  // The body kept is the decoded one.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set(FETCHED_AT, new Date().toISOString());
  const copy = new Response(await response.clone().blob(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  const pages = await caches.open(PAGES);
  await pages.put(key, copy);
}

async function keep(url, fragment, refresh) {
  const key = cacheKey(url, fragment);
  const pages = await caches.open(PAGES);
  if (!refresh && (await pages.match(key, { ignoreVary: true }))) return;
  const headers = fragment ? { "HX-Request": "true" } : {};
  const response = await fetch(url, { headers, credentials: "same-origin" });
  if (storable(response)) await store(key, response);
}

// A kept page, marked for its script: <html data-offline-copy="when it was fetched">.
async function marked(copy) {
  const html = await copy.text();
  const when = copy.headers.get(FETCHED_AT) || "";
  const body = html.replace("<html ", `<html data-offline-copy="${when}" `);
  return new Response(body, { status: 200, headers: copy.headers });
}

async function networkFirst(request, fragment) {
  const key = cacheKey(request.url, fragment);
  const pages = await caches.open(PAGES);
  const network = fetch(request).then(async (response) => {
    if (storable(response)) await store(key, response);
    return response;
  });
  const fallback = async () => {
    const copy = await pages.match(key, { ignoreVary: true });
    if (!copy) return null;
    return fragment ? copy : marked(copy);
  };
  network.catch((error) => console.info("sw: no answer", error));
  let timer;
  const slow = new Promise((resolve) => {
    timer = setTimeout(async () => resolve(await fallback()), PATIENCE);
  });
  try {
    const first = await Promise.race([network, slow.then((copy) => copy || network)]);
    clearTimeout(timer);
    return first;
  } catch (error) {
    clearTimeout(timer);
    const copy = await fallback();
    if (copy) return copy;
    throw error;
  }
}

async function staleWhileRevalidate(event) {
  const files = await caches.open(FILES);
  const copy = await files.match(event.request, { ignoreVary: true });
  const network = fetch(event.request).then(async (response) => {
    if (response.ok && response.type === "basic") await files.put(event.request, response.clone());
    return response;
  });
  if (copy) {
    event.waitUntil(network.catch((error) => console.info("sw: no answer", error)));
    return copy;
  }
  return network;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/admin/")) return;
  // The live poll is about now: never kept, never answered from a copy.
  if (url.pathname.endsWith("/live/")) return;
  if (url.pathname.startsWith(CONFIG.static) || url.pathname.endsWith(".webmanifest")) {
    event.respondWith(staleWhileRevalidate(event));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, false));
  } else if (request.headers.get("HX-Request") === "true") {
    event.respondWith(networkFirst(request, true));
  }
});
