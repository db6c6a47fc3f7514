#!/usr/bin/env python3
# Runs a command and prints its wall time and the processor time of every process it started. /usr/bin/time misses
# the test host when `dotnet test` leaves it to be reaped by another process: made a child subreaper, this script
# reaps such orphans itself, so RUSAGE_CHILDREN counts them. Usage: scripts/cputime.py dotnet test ...
import ctypes, os, resource, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
start = time.time()
p = subprocess.Popen(sys.argv[1:])
rc = p.wait()
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.time()-start:.2f} s wall {r.ru_utime:.2f} user {r.ru_stime:.2f} sys", file=sys.stderr)
sys.exit(rc)
