#!/bin/bash
# usage: run-tcp.sh CONFIG: as run.sh, the example Flask app under 2 sync workers on 127.0.0.1:18700 (P=/).
TCP=1 P=${P:-/} exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" "$@"
