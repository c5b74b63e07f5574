"""The site's sockets, transport only: base.py (what every socket shares), table.py (a
table's socket), nav.py (the per-page socket), routing.py (their paths), sockets.py (the
socket counts). What a socket sends is built in games.present; none imports the views."""
