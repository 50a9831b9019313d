#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The translator end to end (see translate-fixtures-a.t) on a prog array
# filled by the loader (tail calls), kprobe + tracepoint + raw tracepoint
# attachments (perf_event_open with PMU types and tracepoint ids looked up by
# name at replay time), and CO-RE.
. "$(dirname "$0")/translate-lib.sh"

translate_fixtures fx_tailcall fx_attach fx_core
finish
