"""A writer in another process for the write-ledger tests: stock SQLite (Python's sqlite3).

    ledger_writer.py <database> <directory>

Inserts rows (autocommit, one per statement) into `ledger` until <directory>/stop exists, and
appends the id of every insert that returned success to <directory>/ledger.txt (an id is written
only after SQLite acknowledged the commit). An id inserted after <directory>/changed appeared is
marked with a trailing '+'. Failed inserts are counted in <directory>/failed.txt. Prints READY
once connected.
"""
import os
import sqlite3
import sys
import time

database, directory = sys.argv[1], sys.argv[2]
stop, changed = os.path.join(directory, "stop"), os.path.join(directory, "changed")
con = sqlite3.connect(database, timeout=10, isolation_level=None)
failed = 0
with open(os.path.join(directory, "ledger.txt"), "w") as ledger:
    print("READY", flush=True)
    row = 1_000_000
    while not os.path.exists(stop):
        after = os.path.exists(changed)
        try:
            con.execute("INSERT INTO ledger(id, body) VALUES (?, ?)", (row, "row %d" % row))
            ledger.write("%d%s\n" % (row, "+" if after else ""))
            ledger.flush()
        except sqlite3.Error:
            failed += 1
            time.sleep(0.002)
        row += 1
        time.sleep(0.001)
# As an application does when it is done: its close may checkpoint the WAL and remove it.
con.close()
with open(os.path.join(directory, "failed.txt"), "w") as out:
    out.write("%d\n" % failed)
