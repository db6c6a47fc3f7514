#!/usr/bin/env python3
"""Starts the server's build output as E2E does (`dotnet IfiDashboard.Server.dll`, Production, its own working folder),
waits until /healthz answers, then stops it with SIGTERM. Run under scripts/process-tree-time.py for one start's wall
and processor time (docs/benchmarks.md, "The test command"):

    scripts/process-tree-time.py scripts/server-start-time.py src/Server/bin/Debug/net10.0 [--demo | server arguments]

A start the server refuses (a wrong setting) ends by itself; its exit code is printed.
"""
import os, signal, socket, subprocess, sys, tempfile, time, urllib.request

binaries, arguments = sys.argv[1], sys.argv[2:]
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
environment = {k: v for k, v in os.environ.items() if "__" not in k and not k.startswith("ASPNETCORE_")}
folder = tempfile.mkdtemp(prefix="ifi-start-")
started = time.monotonic()
server = subprocess.Popen(["dotnet", os.path.join(os.path.abspath(binaries), "IfiDashboard.Server.dll"),
                           "--urls", f"http://127.0.0.1:{port}", *arguments], cwd=folder, env=environment,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
while server.poll() is None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=60) as answer:
            if answer.status == 200:
                print(f"ready after {time.monotonic() - started:.2f} s wall", file=sys.stderr)
                server.send_signal(signal.SIGTERM)
                break
    except OSError:
        time.sleep(0.05)
code = server.wait()
print(f"exit {code}; last line on stderr: {(server.stderr.read().decode().strip().splitlines() or [''])[-1]}", file=sys.stderr)
