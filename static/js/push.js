// "Notify me on this device": the one notification switch, on the profile and at the table
// ([data-push-toggle]). On: the service worker is registered, the browser subscribes with
// the site's VAPID key and the subscription is sent to the site; off: it is unsubscribed
// here and there (games.views.device). Every try gets an answer in words at once: working,
// on, refused, not possible in this browser (a private window), or no answer within
// WAIT_MS. Where push can't work, the profile's switch for notices while the site is open
// (static/js/live.js, [data-notify-toggle]) stands in for it: one switch shows, never two.
(function () {
  "use strict";
  const WAIT_MS = 6000;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    });
  }

  function key(base64url) {
    const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  // The same address as static/js/worker.js: one worker, in the page's language.
  function workerUrl() {
    const meta = document.querySelector('meta[name="service-worker"]');
    return meta ? meta.content : "/sw.js";
  }

  async function registration() {
    return navigator.serviceWorker.register(workerUrl(), { scope: "/" });
  }

  async function current() {
    const reg = await navigator.serviceWorker.getRegistration("/");
    return reg ? reg.pushManager.getSubscription() : null;
  }

  // A promise that gives up after WAIT_MS: a browser that never answers is told as such.
  function inTime(promise) {
    return Promise.race([promise, new Promise(function (resolve, reject) {
      setTimeout(function () { reject(new Error("timeout")); }, WAIT_MS);
    })]);
  }

  function say(button, note) {
    const status = button.parentElement.querySelector("[data-push-status]");
    if (status) status.textContent = note || "";
  }

  function show(button, on, note) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? button.dataset.on : button.dataset.off;
    say(button, note);
  }

  // Why it failed, in the player's words: refused, not possible here, or no answer.
  function reason(button, error) {
    if (error && error.message === "timeout") return button.dataset.timeout;
    const name = error && error.name;
    if (name === "NotAllowedError" || name === "AbortError" || name === "NotSupportedError" ||
        name === "InvalidStateError" || name === "SecurityError") {
      return button.dataset.unsupported;
    }
    return button.dataset.failed;
  }

  async function turnOn(button) {
    const permission = await Notification.requestPermission();  // the player's own time
    if (permission !== "granted") {
      show(button, false, button.dataset.denied);
      return;
    }
    say(button, button.dataset.working);
    await inTime((async function () {
      const reg = await registration();
      await navigator.serviceWorker.ready;
      const made = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(button.dataset.key) });
      const answer = await post(button.dataset.subscribe, made.toJSON());
      if (!answer.ok) throw new Error(String(answer.status));
    })());
    // The site's own notices while it is open would say the same twice (static/js/live.js).
    try { localStorage.removeItem("durak-notify"); } catch (e) { /* private mode */ }
    show(button, true, button.dataset.done);
  }

  async function toggle(button) {
    button.disabled = true;
    say(button, button.dataset.working);
    try {
      const subscription = await inTime(current());
      if (subscription) {
        await inTime(post(button.dataset.unsubscribe, { endpoint: subscription.endpoint }));
        await subscription.unsubscribe();
        show(button, false);
        return;
      }
      await turnOn(button);
    } catch (e) {
      show(button, false, reason(button, e));
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-push-toggle]");
    if (button) toggle(button);
  });

  // Shows the switch for notices while the site is open; true if the page has one.
  function standIn() {
    const others = document.querySelectorAll("[data-notify-toggle]");
    others.forEach(function (b) { b.hidden = false; });
    return others.length > 0;
  }

  async function start() {
    const buttons = document.querySelectorAll("[data-push-toggle]");
    if (!buttons.length) {
      standIn();
      return;
    }
    if (!supported) {
      // Said at once where a switch stands in for it (the profile); the table stays quiet.
      if (standIn()) buttons.forEach(function (button) { say(button, button.dataset.unsupported); });
      return;
    }
    const on = Boolean(await inTime(current()).catch(() => null));
    buttons.forEach(function (button) {
      button.hidden = false;
      show(button, on);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
