// Clocks: every .countdown[data-deadline] counts down in the viewer's words ("4 min 12 s",
// "2 days 3 h"; Intl.DurationFormat in the page's language). The browser's time zone goes
// to the server in the "tz" cookie (accounts.middleware saves it on the profile) and in the
// sign-up form's hidden field. A page the server rendered before it knew the zone (the
// first page in a new browser) has its <time datetime> shown in the browser's zone.
(function () {
  "use strict";
  var lang = document.documentElement.lang || "en";
  var zone = "", guessed = false;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    // IANA names need no escaping ("America/Argentina/Buenos_Aires", "Etc/GMT+3").
    if (zone && /^[\w+\/-]+$/.test(zone)) {
      if (!/(?:^|;\s*)tz=/.test(document.cookie)) guessed = true;  // the server did not know
      if (document.cookie.indexOf("tz=" + zone) < 0) {
        document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
      }
    } else {
      zone = "";
    }
  } catch (e) { /* no Intl: the site's time zone */ }

  function localTimes(root) {
    if (zone) {
      root.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
        if (!input.value) input.value = zone;
      });
    }
    if (!guessed || !zone) return;
    var format;
    try {
      format = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short", timeZone: zone });
    } catch (e) { return; }
    root.querySelectorAll("time[datetime*='T']").forEach(function (el) {
      var when = Date.parse(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = format.format(new Date(when));
    });
  }
  localTimes(document);
  document.addEventListener("htmx:load", function (event) { localTimes(event.target); });

  var format = null;
  try {
    format = new Intl.DurationFormat(lang, { style: "short" });
  } catch (e) { /* older browsers: the fallback below */ }

  // The two largest units: days and hours, hours and minutes, or minutes and seconds.
  function words(seconds) {
    var d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
    var m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var parts = d ? { days: d, hours: h } : h ? { hours: h, minutes: m } : m ? { minutes: m, seconds: s } : { seconds: s };
    if (format) return format.format(parts);
    return Object.keys(parts).map(function (k) { return parts[k] + " " + k.charAt(0); }).join(" ");
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - now) / 1000));
      var text = left > 0 ? (el.dataset.format || "{}").replace("{}", words(left)) : (el.dataset.over || "");
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("urgent", left > 0 && left <= 30);
    });
  }
  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:load", tick);
})();
