"""The site's HTTP pages and htmx answers: table.py (a table and its changes), lobby.py
(the lobby, My games, challenges), history.py (replays, reviews, leaderboards), device.py
(the service worker, the manifest, the offline page, push subscriptions). Every
change goes to services; what a reader sees is built in games.present."""
