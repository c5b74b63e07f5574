// The service worker, served at /sw.js so that its scope is the whole site
// (games.views.device). It shows the site's push notifications (games.services.push), opens
// the table a notification is about when it is clicked, and shows the offline page (kept in
// its cache, in the language of the last page shown) when a page can't be reached.
"use strict";

const CACHE = "durak-offline-v3";
// One address for every language: a worker replaced while a page loads can leave that
// page hanging. The offline page follows the language of the last page shown instead.
const OFFLINE = "/offline/";
const LANGUAGE = "/offline/language";  // that language, kept as a cache entry

self.addEventListener("install", (event) => {
  // The server words /offline/ in the visitor's language (cookie or browser).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(OFFLINE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A page in another language than the offline page kept: keep that language's instead.
async function remember(response) {
  const lang = response.headers.get("Content-Language") || "";
  if (!response.ok || !/^[a-z]{2,3}$/.test(lang)) return;
  const cache = await caches.open(CACHE);
  const known = await cache.match(LANGUAGE);
  if (known && (await known.text()) === lang) return;
  const page = await fetch("/offline/" + lang + "/");
  if (!page.ok) return;
  await cache.put(OFFLINE, page);
  await cache.put(LANGUAGE, new Response(lang));
}

// Pages come from the network; only when it fails, the offline page. A form sent (POST)
// is left to the browser.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  const answer = fetch(event.request);
  event.respondWith(answer.catch(async () => (await caches.match(OFFLINE)) || Response.error()));
  event.waitUntil(answer.then(remember).catch(() => {}));
});

function windows() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true });
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url = new URL(data.url || "/games/mine/", self.location.origin).href;
  event.waitUntil((async () => {
    // One notification a game: a newer one replaces it (tag).
    await self.registration.showNotification(data.title || "Durak", {
      body: data.body || "",
      tag: data.tag || "durak",
      renotify: true,
      icon: "/static/icons/icon-192.png",
      data: { url: url },
    });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || new URL("/games/mine/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await windows();
    const same = open.find((client) => client.url === url);
    if (same) return same.focus().catch(() => same);
    // A window of the site goes to the table; else a new one opens.
    const other = open.find((client) => "navigate" in client);
    if (other) {
      const client = await other.navigate(url).catch(() => null);
      if (client) return client.focus().catch(() => client);
    }
    return self.clients.openWindow(url);
  })());
});
