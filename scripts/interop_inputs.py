"""The inputs scripts/interop and scripts/interop-peers.py read: ../shared/corpus (.ics, Graph .json) and Samples/."""

import glob
import os
import sys


def inputs(root):
    shared = os.path.normpath(os.path.join(root, "..", "shared", "corpus"))
    files = sorted(glob.glob(os.path.join(shared, "**", "*.ics"), recursive=True))
    files += sorted(glob.glob(os.path.join(shared, "graph", "*.json")))
    if not files:
        print(f"note: {shared} not found; Samples/ only", file=sys.stderr)
    return files + sorted(glob.glob(os.path.join(root, "Samples", "*.ics")) + glob.glob(os.path.join(root, "Samples", "*.json")))
