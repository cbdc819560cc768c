// The queue of hands saved on this phone, in IndexedDB: "queue" holds the hands not yet stored,
// "keys" every key queued here (a form kept by the service worker comes back with a key already
// used: it gets a fresh one).

import { state } from "./state.js";

let connection = null;

function database() {
  // One connection for the page's life: opening one costs more than a whole save.
  if (!connection) {
    connection = new Promise((resolve, reject) => {
      const opening = indexedDB.open("tarot-offline", 1);
      opening.onupgradeneeded = () => {
        opening.result.createObjectStore("queue", { keyPath: "key" });
        opening.result.createObjectStore("keys", { keyPath: "key" });
      };
      opening.onsuccess = () => {
        opening.result.onversionchange = () => {
          opening.result.close();
          connection = null;
        };
        resolve(opening.result);
      };
      opening.onerror = () => {
        connection = null;
        reject(opening.error);
      };
    });
  }
  return connection;
}

async function transact(stores, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result;
    Promise.resolve(work(tx)).then((value) => (result = value));
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function request(idbRequest) {
  return new Promise((resolve, reject) => {
    idbRequest.onsuccess = () => resolve(idbRequest.result);
    idbRequest.onerror = () => reject(idbRequest.error);
  });
}

// This sheet's queue as last read or written here, so that Save shows its row without waiting
// for IndexedDB; sending reads the database again (another tab may have sent hands).
export let memory = null;
export const usedKeys = new Set();

/** This sheet's waiting hands, in the order they were saved. */
export async function queued() {
  if (!state || !state.token) return [];
  const all = await transact(["queue"], "readonly", (tx) => request(tx.objectStore("queue").getAll()));
  memory = all.filter((entry) => entry.token === state.token).sort((a, b) => a.order - b.order);
  return memory.slice();
}

/** The queue as it is about to be written: shown before IndexedDB answers. */
export function remember(entries) {
  memory = entries;
}

export async function loadKeys() {
  const keys = await transact(["keys"], "readonly", (tx) => request(tx.objectStore("keys").getAllKeys()));
  keys.forEach((key) => usedKeys.add(key));
}

export async function saveEntry(entry, replaces) {
  usedKeys.add(entry.key);
  await transact(["queue", "keys"], "readwrite", (tx) => {
    if (replaces) tx.objectStore("queue").delete(replaces);
    tx.objectStore("queue").put(entry);
    tx.objectStore("keys").put({ key: entry.key, at: Date.now() });
  });
}

export async function updateEntry(entry) {
  await transact(["queue"], "readwrite", (tx) => tx.objectStore("queue").put(entry));
}

export async function dropEntry(key) {
  if (memory) memory = memory.filter((entry) => entry.key !== key);
  await transact(["queue"], "readwrite", (tx) => tx.objectStore("queue").delete(key));
}

/** A new form key (a version 4 UUID). */
export function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
