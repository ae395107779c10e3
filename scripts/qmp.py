#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Send one QMP command to a QEMU monitor socket and print the reply.

    qmp.py SOCKET COMMAND [JSON-ARGUMENTS]
"""
import json
import socket
import sys


def qmp(path, command, arguments=None, timeout=30):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    f = s.makefile("rw")
    json.loads(f.readline())                      # greeting
    f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
    f.flush()
    json.loads(f.readline())
    msg = {"execute": command}
    if arguments:
        msg["arguments"] = arguments
    f.write(json.dumps(msg) + "\n")
    f.flush()
    while True:
        reply = json.loads(f.readline())
        if "event" not in reply:
            s.close()
            return reply


if __name__ == "__main__":
    args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
    r = qmp(sys.argv[1], sys.argv[2], args)
    print(json.dumps(r))
    sys.exit(0 if "return" in r else 1)
