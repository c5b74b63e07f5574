// The service worker for every visitor, logged in or not (games.views.device): a page that
// can't be reached opens as the offline page, in the language of the last page shown. Its
// address is the page's <meta name="service-worker"> (/sw.js, one for every language: the
// worker follows the pages' language itself). static/js/push.js registers the same address.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  const meta = document.querySelector('meta[name="service-worker"]');
  if (!meta) return;
  navigator.serviceWorker.register(meta.content, { scope: "/" }).catch(function () {});
})();
