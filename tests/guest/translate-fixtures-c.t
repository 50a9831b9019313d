#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The translator end to end (see translate-fixtures-a.t) on loads spread over
# processes and threads: a map made by a parent and used by its forked child
# through the inherited fd, and four threads loading concurrently.
. "$(dirname "$0")/translate-lib.sh"

translate_fixtures fx_fork fx_threads
finish
