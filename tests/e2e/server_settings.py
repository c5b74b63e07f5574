"""The browser tier's servers: the site's own settings, but for the password hasher.

Argon2 spends a fifth of a second of CPU on each hash by design; the browser tier signs
up and logs in about 150 times (and its tests make more users directly), so its servers
and the test process share the cheap hasher the other tiers use. The site's own hashers
are tested in tests/accounts/test_login.py.
"""

from durak_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
