#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 30
# Every source file carries its SPDX license line (scripts/add-spdx.sh adds the missing ones).
set -eu
sh "$SRCDIR/scripts/add-spdx.sh" --check "$SRCDIR"
echo "spdx: every source file has its license line"
