"""Settings for durak_site, driven by environment variables (as healthchecks' hc/settings.py).

Every value has a safe local default so that `scripts/run` and `scripts/test` work on a fresh
clone; production overrides them through the environment.
"""

import logging
import zoneinfo
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from durak_site.env import (  # noqa: F401 - TRUE_WORDS for the tests
    TRUE_WORDS,
    envbool,
    envchoice,
    envfloat,
    envint,
    envlist,
    envstr,
)
from durak_site.keystrength import entropy_bits

BASE_DIR = Path(__file__).resolve().parent.parent


# The environment is read through durak_site.env only, and strictly.
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


# A developer's switch, off unless asked: players get friendly error pages.
DEBUG = envbool("DEBUG", "False")
DEV_SECRET_KEY = "insecure-dev-key-change-me-in-production-0123456789"
SECRET_KEY = envstr("SECRET_KEY", "") or (DEV_SECRET_KEY if DEBUG else "")


MIN_KEY_BITS = 160  # estimated (durak_site.keystrength): token_urlsafe(50) ~390, token_hex(32) ~240


def weak_key(key: str) -> bool:
    """The public dev key, or a key of words, patterns or repeats (too few bits)."""
    return key == DEV_SECRET_KEY or entropy_bits(key) < MIN_KEY_BITS


if not DEBUG and weak_key(SECRET_KEY):
    raise ImproperlyConfigured(
        f"SECRET_KEY is missing or weak: it looks like {entropy_bits(SECRET_KEY):.0f} bits "
        f"of randomness, and it needs {MIN_KEY_BITS} (a long random string: no words, "
        "patterns or repeats, and not the development key). Make one with\n"
        "  python -c 'import secrets; print(secrets.token_urlsafe(50))'\n"
        "and set it in the environment as SECRET_KEY (scripts/run makes one in "
        ".run/secret-key), or set DEBUG=true on a developer's machine.")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
SITE_NAME = envstr("SITE_NAME", "Durak")

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves ASGI (HTTP and WebSockets)
    "modeltranslation",  # before the admin: a preset's name and description per language
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "health_check",  # /healthz (durak_site/health.py)
    "accounts",
    "games",
]

MIDDLEWARE = [
    "durak_site.requestlog.request_log",  # first: one log line per request, with its duration
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Sync-only, so next to last: under ASGI, Django runs the middleware in one
    # thread down to the first that can run asynchronously (Axes can) and switches thread
    # for each after it; with these above Axes, the messages, frame, CSP and htmx ones
    # each switched, about a millisecond of server time per request.
    "accounts.middleware.PlayerLanguageMiddleware",  # a saved profile language wins
    "accounts.middleware.LastSeenMiddleware",  # no "your move" email for a move seen
    "accounts.middleware.TimeZoneMiddleware",  # the browser's (and profile's) time zone
    "durak_site.notallowed.NotAllowedPage",  # a 405 to a browser: the site's own page
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out logins
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_USER_MODEL = "accounts.Player"

ROOT_URLCONF = "durak_site.urls"
WSGI_APPLICATION = "durak_site.wsgi.application"
ASGI_APPLICATION = "durak_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.login_next",
            ],
        },
    },
    {
        # The table's felt, rendered after every move for every reader (games.present.felt).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.present.felt.environment"},
    },
]

# Database: SQLite in the repo by default (WAL journal), PostgreSQL via DATABASE_URL.
# DB_CONN_MAX_AGE keeps a connection open that long (scripts/run: 60 s): Daphne runs every
# table socket of a process on one thread, so that is one connection a process for them,
# checked before reuse (CONN_HEALTH_CHECKS) after a database restart. An HTTP request runs
# on a thread of its own (Django's ASGI handler), so it opens a connection of its own.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=envint("DB_CONN_MAX_AGE", "0"),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis carries the channel layer and the Celery broker. Without REDIS_URL only the unit
# tests run, on the in-memory layer (it cannot reach across processes).
REDIS_URL = envstr("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group event is one PUBLISH, read once per
            # process and handed to its sockets there; the list-based layer
            # (channels_redis.core.RedisChannelLayer) queued a copy per socket and cost
            # ~17% more server CPU per move in the load benchmark.
            # channels_redis' pub/sub layer, made to live through a Redis restart: it
            # resubscribes, retries a publish once, and tells its consumers to catch up.
            "BACKEND": envstr("CHANNEL_LAYER_BACKEND",
                              "durak_site.channel_layer.ReconnectingPubSubChannelLayer"),
            # redis-py 8 stops reading after 5 s by default (socket_timeout), exactly as
            # long as the list-based layer blocks waiting for a message: an idle table's
            # consumer crashed with "Timeout reading from ..." every 5 s. Wait longer. A
            # Redis that can't be reached fails a connect in 2 s (a publish is tried twice).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30,
                                  "socket_connect_timeout": 2}],
                       # Pub/sub channels are one namespace for every database number of a
                       # Redis: sites sharing one Redis each need their own prefix.
                       "prefix": envstr("CHANNEL_LAYER_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Sockets allowed at once (beyond: closed 4429): anonymous ones per client address, a
# signed-in player's per player (tabs of table and page sockets), watchers per game (a
# table's seated players are never counted there; games.live.middleware).
WS_MAX_PER_ADDRESS = envint("WS_MAX_PER_ADDRESS", "20")
WS_MAX_PER_PLAYER = envint("WS_MAX_PER_PLAYER", "30")
WS_MAX_PER_GAME = envint("WS_MAX_PER_GAME", "200")
# A socket's slot in those counts lasts this long unless its process renews it (games.live.sockets).
WS_SLOT_SECONDS = envint("WS_SLOT_SECONDS", "60")

# The cache (one-time form tokens) is shared by every process when Redis is there.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": "durak",
                          # A Redis that is gone fails a request at once, never hangs it.
                          "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5}}}

# Argon2 first, as Django's docs advise: memory-hard, where PBKDF2 is not (0.20 s of CPU a
# hash here, PBKDF2 at Django's 1.5 million rounds 0.34 s). Older PBKDF2 hashes still log in
# and are rehashed with Argon2 at that log-in.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# django-axes, in the database (accounts.lockout): a username from one address is locked out
# after AXES_FAILURE_LIMIT failed log-ins, an address after AXES_ADDRESS_FAILURE_LIMIT
# whatever the usernames; an account tried from addresses it never logged in from is slowed.
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_ENABLED = envbool("AXES_ENABLED", "True")
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "5")
AXES_ADDRESS_FAILURE_LIMIT = envint("AXES_ADDRESS_FAILURE_LIMIT", "20")
AXES_COOLOFF_TIME = envint("AXES_COOLOFF_HOURS", "1")  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a refused try counts for nothing
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"  # a 429 page saying when to retry
AXES_VERBOSE = envbool("AXES_VERBOSE", "False")
# The named rate limits (games.limits): (count, seconds) per window; a bucket's (per second,
# burst). The account limits are kept in the database (accounts.ratelimit);
# ACCOUNT_RATE_LIMITS=off switches them off (the browser tier signs many up from 127.0.0.1).
LIMITS = {
    "signup_ip": (5, 60 * 60),  # new accounts from one client address
    "reset_ip": (5, 60 * 60),  # password-reset requests from one client address
    "reset_account": (3, 60 * 60),  # password-reset mails for one email address
    "email_change_account": (3, 60 * 60),  # confirmation mails one player asks for
    "chat": (5, 10),  # messages one player writes at one table
    "hint": (10, 60),  # the coach's hints one player asks for
    "review": (10, 60 * 60),  # the coach's reviews one player asks for
    "socket_messages": (4.0, 12),  # frames one socket sends (beyond the burst: closed 4429)
    # Every route that changes something (games.limits.limited; docs/design.md, "Limits by
    # default"), per player and in the cache unless said; wide enough for the browser tier.
    "games_made": (20, 60 * 60),  # tables made or found (make a table, quick match)
    "lessons": (10, 60 * 60),  # lesson tables started
    "challenges_sent": (20, 60 * 60),  # challenges one player sends
    "challenges_received": (10, 60 * 60),  # challenges to one player, whoever sends them
    "challenge_answers": (60, 60 * 60),  # challenges accepted or declined
    "vacations": (10, 24 * 60 * 60),  # vacations started or ended
    "tournaments_made": (5, 60 * 60),
    "tournament_changes": (60, 60 * 60),  # joined, left, started, cancelled
    "push_subscriptions": (10, 60 * 60),  # devices turned on for notifications
    "push_unsubscriptions": (10, 60 * 60),
    "profile_saves": (60, 60 * 60),  # the profile and the language switch
    "seat_changes": (60, 60 * 60),  # seats taken or left at open tables
    "mutes": (60, 60 * 60),  # players muted or heard again at a table
    "deal_checks": (60, 60 * 60),  # exports checked (per player, or visitor's address)
    "friend_changes": (60, 60 * 60),  # friends added or removed, players blocked or unblocked
    # Kept in the database, per player (accounts.ratelimit):
    "password_guesses": (5, 60 * 60),  # wrong passwords in forms that ask for it again
    "device_link_account": (3, 60 * 60),  # log-in links mailed to a locked account
}
ACCOUNT_RATE_LIMITS_ENABLED = envbool("ACCOUNT_RATE_LIMITS", "on")


# Email: printed to the console unless EMAIL_URL names an SMTP server, e.g.
# smtp://user:password@mail.example.org:587 (STARTTLS) or smtps://… (TLS from the start).
def mailer(url: str) -> dict:
    if not url:
        return {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(f"EMAIL_URL must start with smtp:// or smtps://, not {parts.scheme}://")
    return {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": parts.hostname,
            "port": parts.port,
            "username": unquote(parts.username or ""),
            "password": unquote(parts.password or ""),
            "use_ssl": parts.scheme == "smtps",
            "use_tls": parts.scheme == "smtp" and parts.port == 587,
        },
    }


MAILERS = {"default": mailer(envstr("EMAIL_URL", ""))}
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "durak@localhost")

LANGUAGE_CODE = "en"
# Each language named in its own language (the switcher in _base.html shows these names).
LANGUAGES = [("en", "English"), ("fi", "Suomi"), ("nb", "Norsk (bokmål)"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A rule preset's name and description per language (games/translation.py); an empty one
# reads as the English.
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)
TIME_ZONE = envstr("TIME_ZONE", "UTC")
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(
        f"TIME_ZONE must be an IANA time zone (e.g. UTC or Europe/Helsinki), not {TIME_ZONE!r}"
    ) from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(BASE_DIR / "staticfiles")))  # for collectstatic
# Let Daphne serve static files itself (see asgi.py); turn off when a proxy serves STATIC_ROOT.
SERVE_STATIC = envbool("SERVE_STATIC", "True")
# STATIC_HASHED=true (production, after collectstatic): file names carry a hash of their
# content, so a proxy may let browsers cache them for a year (deploy/nginx-durak.conf.template).
if envbool("STATIC_HASHED", "False"):
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {
            "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }

# Request bodies: nginx refuses bodies over 1 MB before they reach Daphne
# (deploy/nginx-durak.conf.template: client_max_body_size); Django's own limits stay as the
# second wall when Daphne is reached directly (scripts/run). Over them: a 400.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", str(1024 * 1024))
DATA_UPLOAD_MAX_NUMBER_FIELDS = envint("DATA_UPLOAD_MAX_NUMBER_FIELDS", "1000")
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

# Logs go to stderr: a line of text each, or with LOG_FORMAT=json one JSON object per line
# (python-json-logger) for a log system; `extra` fields become keys (durak_site/requestlog.py
# logs every request with its game and duration). LOG_LEVEL (INFO) sets the level.
LOG_FORMAT = envchoice("LOG_FORMAT", "text", ("text", "json"))
LOG_LEVEL = envchoice("LOG_LEVEL", "INFO", LOG_LEVELS)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",  # ISO 8601, UTC
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django's own loggers go through the root handler only (no second, plain copy).
    "loggers": {name: {"handlers": [], "propagate": True}
                for name in ("django", "django.server")},
}
# Celery keeps its own plain handlers unless told to leave the root logger alone, and
# Python's warnings (Celery's, for one) go through the logs too.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"
logging.captureWarnings(LOG_FORMAT == "json")

# Celery: bot moves, the deadline sweep and reminders. The broker is the same Redis; with
# no REDIS_URL (unit tests) tasks run eagerly in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = envbool("CELERY_TASK_ALWAYS_EAGER", "False" if REDIS_URL else "True")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-move: the task is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", "60")}
CELERY_TASK_IGNORE_RESULT = True
# Queues by urgency, each consumed by a worker process of its own (Procfile, deploy/): bot
# moves and the deadline sweep ("play") never wait behind the coach ("coach": hints,
# reviews), mail ("mail": also anything unrouted) or web pushes ("push": requests to push
# services, each bounded by games.outbound's timeouts). A worker without -Q takes them all.
CELERY_TASK_QUEUES: dict[str, dict[str, str]] = {"play": {}, "coach": {}, "mail": {}, "push": {}}
CELERY_TASK_DEFAULT_QUEUE = "mail"
CELERY_TASK_ROUTES = {
    "games.tasks.bot_turn": {"queue": "play"},
    "games.tasks.sweep_deadlines": {"queue": "play"},
    "games.tasks.advance_tournament": {"queue": "play"},
    "games.tasks.tournament_rounds": {"queue": "play"},
    "games.tasks.coach_hint": {"queue": "coach"},
    "games.tasks.review_game": {"queue": "coach"},
    "games.tasks.send_reminders": {"queue": "mail"},
    "games.tasks.send_summaries": {"queue": "mail"},
    "games.tasks.challenge_mail": {"queue": "mail"},
    "games.tasks.tournament_mail": {"queue": "mail"},
    "games.tasks.remove_old_guests": {"queue": "mail"},
    "games.tasks.push": {"queue": "push"},
    "games.tasks.push_time_warnings": {"queue": "push"},
}
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 3.0},
    # Tournaments: starts, withdrawals and round deadlines (a table's end asks at once).
    "tournament-rounds": {"task": "games.tasks.tournament_rounds", "schedule": 10.0},
    # REMINDER_INTERVAL: the integration tier makes the mail round quicker.
    "send-reminders": {"task": "games.tasks.send_reminders",
                       "schedule": envfloat("REMINDER_INTERVAL", "60")},
    "send-summaries": {"task": "games.tasks.send_summaries", "schedule": 3600.0},
    # Unclaimed guests away for 30 days (docs/design.md, "Guests from a link").
    "remove-old-guests": {"task": "games.tasks.remove_old_guests", "schedule": 3600.0},
}
SWEEP_INTERVAL = 3  # seconds, as above
# Days a year a player may stop the clocks of their slow games (games.services.vacation).
VACATION_DAYS_PER_YEAR = envint("VACATION_DAYS_PER_YEAR", "30")

# Bots: seconds a bot may think per move (unset: each level's own default).
BOT_MOVE_BUDGET = envfloat("BOT_MOVE_BUDGET", None)
# Seconds between a computer player's moves while a person is at the table, so that each
# card can be followed (half as long after a person's own move; none at a table of bots).
BOT_PACE_SECONDS = max(0.0, envfloat("BOT_PACE_SECONDS", "1.0") or 0.0)
# Links in emails; its scheme decides HTTPS below.
SITE_URL = envstr("SITE_URL", "http://127.0.0.1:8000")
# setup_site's admin account; without ADMIN_PASSWORD its password is made up once and kept
# in RUN_DIR/admin-password (RUN_DIR: where scripts/run keeps its files).
ADMIN_USERNAME = envstr("ADMIN_USERNAME", "admin")
ADMIN_PASSWORD = envstr("ADMIN_PASSWORD", "", strip=False)
RUN_DIR = Path(envstr("RUN_DIR", str(BASE_DIR / ".run")))

# Web push (games.services.push): the private half of the site's VAPID key pair (RFC 8292),
# the raw P-256 scalar in base64url; scripts/run makes one once in RUN_DIR/vapid-key. Empty:
# no push notifications (the switch is not offered). VAPID_SUBJECT: how a push service may
# reach the site's operator.
VAPID_PRIVATE_KEY = envstr("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = envstr("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
# The push services' hosts the site sends to (games.outbound; comma-separated, ".name" for a
# name and its subdomains); empty: any host on the public internet.
PUSH_HOSTS = envlist("PUSH_HOSTS", "")

# HTTPS follows SITE_URL's scheme, not DEBUG: secure cookies, HSTS and the SSL redirect
# (`manage.py check --deploy` passes); plain http://127.0.0.1 keeps working without them.
HTTPS = urlsplit(SITE_URL).scheme == "https"
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", str(HTTPS))
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (Django's own): scripts only from our static files (htmx from
# django-htmx's), no inline scripts. htmx adds a <style> for its indicators, hence the
# inline styles. 'self' covers the table's same-origin WebSocket.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "True")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a local probe over plain http gets its answer
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
