// "Notify me on this device": the switch on the profile and at the table
// ([data-push-toggle]). On: the service worker (/sw.js) is registered, the browser
// subscribes with the site's VAPID key and the subscription is sent to the site; off: it
// is unsubscribed here and there (games.views.device).
(function () {
  "use strict";
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

  async function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" });
  }

  async function current() {
    const reg = await navigator.serviceWorker.getRegistration("/");
    return reg ? reg.pushManager.getSubscription() : null;
  }

  function show(button, on, note) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? button.dataset.on : button.dataset.off;
    const status = button.parentElement.querySelector("[data-push-status]");
    if (status) status.textContent = note || "";
  }

  async function toggle(button) {
    button.disabled = true;
    try {
      const subscription = await current();
      if (subscription) {
        await post(button.dataset.unsubscribe, { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
        show(button, false);
        return;
      }
      if (await Notification.requestPermission() !== "granted") {
        show(button, false, button.dataset.denied);
        return;
      }
      const reg = await registration();
      await navigator.serviceWorker.ready;
      const made = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(button.dataset.key) });
      const answer = await post(button.dataset.subscribe, made.toJSON());
      if (!answer.ok) throw new Error(String(answer.status));
      show(button, true);
    } catch (e) {
      show(button, false, button.dataset.failed);
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-push-toggle]");
    if (button) toggle(button);
  });

  async function start() {
    const buttons = document.querySelectorAll("[data-push-toggle]");
    if (!buttons.length || !supported) return;
    // The worker is kept up to date (and offline pages work) once the player has a switch.
    registration().catch(function () {});
    const on = Boolean(await current().catch(() => null));
    buttons.forEach(function (button) {
      button.hidden = false;
      show(button, on);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
