#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# restore-host.sh - undo scripts/prepare-host.sh: write back the values it
# recorded. The same as `scripts/prepare-host.sh --restore`; every option of
# that script (--dry-run, --state FILE, --root DIR) is accepted here too.
. "$(dirname "$0")/help.sh"
set -eu
exec "$(dirname "$0")/prepare-host.sh" --restore "$@"
