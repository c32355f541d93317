#!/bin/sh
# A test engine whose last answer comes just before it exits: it answers its first `genmove`
# with a move no game has, then exits at once (code 0). The referee must read that answer (an
# unparseable move) and not take the exit for a crash before it.
while read -r id command rest; do
    case "$command" in
        protocol_version) printf '=%s 2\n\n' "$id" ;;
        name) printf '=%s last-word\n\n' "$id" ;;
        genmove)
            printf '=%s nonsense\n\n' "$id"
            exit 0
            ;;
        *) printf '=%s\n\n' "$id" ;;
    esac
done
