# Sourced by scripts/test and scripts/run: compilemessages needs GNU gettext's msgfmt;
# install Debian's gettext when it is missing, then compile locale/*/LC_MESSAGES/*.po.
need_gettext() {
    command -v msgfmt >/dev/null 2>&1 && return 0
    echo "Installing gettext from Debian's packages" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gettext >/dev/null
}

compile_messages() {
    need_gettext
    # Compiling needs no secret: DEBUG=true lets settings load without SECRET_KEY.
    DEBUG=true python manage.py compilemessages --ignore=.venv -v 0
}
