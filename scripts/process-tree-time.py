#!/usr/bin/env python3
"""Runs a command and prints the wall and processor time of its whole process tree on standard error.

`/usr/bin/time` counts only the descendants their own parents waited for: Chromium under chromedriver and processes a
test host killed were missed (a Production tour measured 2.6 s of processor time that way). Run as a child subreaper,
this script reaps every orphaned descendant too, so RUSAGE_CHILDREN holds them all.

    scripts/process-tree-time.py dotnet test tests/E2E.Tests --no-build
"""
import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
# A build node or server left running for reuse would be waited for here (and counted): none is left.
os.environ.setdefault("MSBUILDDISABLENODEREUSE", "1")
os.environ.setdefault("DOTNET_CLI_USE_MSBUILD_SERVER", "0")
start = time.monotonic()
code = subprocess.call(sys.argv[1:])
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.monotonic() - start:.1f} s wall {usage.ru_utime:.1f} user {usage.ru_stime:.1f} sys (exit {code})", file=sys.stderr)
sys.exit(code)
