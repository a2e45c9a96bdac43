"""Drives `warpdrill watch` under a pseudo-terminal as a learner would: waits
for the screen, asks for a hint, saves the lesson's file, and quits.
   drive_watch.py FILE_TO_TOUCH WARPDRILL_COMMAND...
"""
import os
import pty
import select
import sys
import time


def read_until(fd, text, seconds):
    seen = b""
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if text.encode() in seen:
                return seen
    sys.exit(f"watch: did not show {text!r} within {seconds} s; it showed:\n{seen.decode(errors='replace')}")


def main():
    touched_file, command = sys.argv[1], sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    read_until(fd, "keys: h hint", 300)
    os.write(fd, b"h")
    read_until(fd, "Hint 1 of", 30)
    with open(touched_file, "a") as f:
        f.write("\n// saved\n")
    read_until(fd, "rebuilding", 30)
    read_until(fd, "keys: h hint", 300)
    os.write(fd, b"q")
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"watch exited with {status}")
    print("watch: screen, hint, rebuild on save and quit all work")


main()
