// The service worker, served at /sw.js so that its scope is the whole site
// (games.views.device). It shows the site's push notifications (games.services.push), opens
// the table a notification is about when it is clicked, and shows the offline page (kept in
// its cache at install, in its page's language) when a page can't be reached.
"use strict";

const CACHE = "durak-offline-v2";
// The language of the page that registered it (/sw.js?lang=ru: static/js/worker.js).
const LANG = new URL(self.location.href).searchParams.get("lang") || "";
const OFFLINE = /^[a-z]{2,3}$/.test(LANG) ? "/offline/" + LANG + "/" : "/offline/";

self.addEventListener("install", (event) => {
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

// Pages come from the network; only when it fails, the offline page. A form sent (POST)
// is left to the browser.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  event.respondWith(fetch(event.request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
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
