"""The soak's daemon in a process of its own, so that its peak memory is its own.

`moderator simulate --mail --daemon-apart` starts this module as a child process instead
of running the daemon (service/daemon.py) in the soak's process beside the bots and the
mail server: the same service (the soak's database, the embedded server's IMAP and SMTP
ports, reports with or without maps) and the same daemon settings. The child runs until
its standard input closes, then stops the daemon and prints its peak resident memory
(`resource.getrusage`, ru_maxrss, kB on Linux) and the faults it caught and went on from
(service/daemon.py) as one JSON line; the soak's summary shows the peak apart from its own
("Peak memory of the daemon, in a process of its own") and counts the faults as its own
daemon's.

The soak learns that a turn is resolved from the database (the game's turn moves on), as
a second daemon or a moderator's desk would, rather than from the daemon's Event.
"""

from __future__ import annotations

import dataclasses
import json
import resource
import sys
from datetime import timedelta
from pathlib import Path


def main(argv: list[str]) -> int:
    from moderator.mail.config import MailConfig, Secret, ServerConfig
    from moderator.service.context import Service
    from moderator.service.daemon import Daemon
    from moderator.store.db import Store

    root, host, imap_port, smtp_port, address, password, umpire, maps = argv
    imap = ServerConfig(host, int(imap_port), user=address, password=Secret(password), timeout=10.0)
    smtp = ServerConfig(host, int(smtp_port), timeout=10.0)
    mail = MailConfig(imap=imap, smtp=smtp, from_address=address, moderator_address=umpire)
    svc = Service(store=Store.at(Path(root) / "simulate.db"), mail=mail,
                  next_deadline=lambda now, _game: now + timedelta(days=10), maps=maps == "maps")
    daemon = Daemon(svc, poll_seconds=2, deadline_seconds=0.25, countdown_seconds=0, idle=True)  # as simulate's own
    daemon.start()
    try:
        sys.stdin.read()  # until the soak closes it
    finally:
        daemon.stop()
    print(json.dumps({"peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "report_seconds": svc.report_seconds,
                      "faults": [dataclasses.asdict(f) for f in daemon.faults]}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
