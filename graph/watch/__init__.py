"""From the disk to ``Observation``: ignore rules and file facts, change records, the watchfiles
watcher and the rescan that catches what the watcher missed.
"""
