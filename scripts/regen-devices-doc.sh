#!/bin/sh
# Rewrites the generated table of docs/devices.md from the catalogue (`prenet devices --markdown`).
# Usage: scripts/regen-devices-doc.sh [--check] [path/to/prenet]; see scripts/regen-cli-doc.sh.
exec sh "$(dirname "$0")/regen-cli-doc.sh" devices "$@"
