"""Ctrl-C during a cold ``simulate``: ``python ctrl_c_trials.py TREE 1,2.5,4``.

For each delay (seconds), a cold ``simulate -n 1000`` of the tree TREE from the command
line (helper on, empty cache of its own, faulthandler on), then SIGINT to its process
group, as a terminal sends it. Prints the delay, the exit status (130 expected), whether
a traceback was printed, and the last line of stderr; all of stderr's end when the status
is not 130.
"""

import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def main(tree: str, delays: list[float]) -> None:
    for delay in delays:
        cache = tempfile.mkdtemp(prefix="cc-")
        env = {**os.environ, "SIMCOINCHE_CACHE_DIR": cache, "PYTHONPATH": tree,
               "PYTHONFAULTHANDLER": "1"}
        env.pop("SIMCOINCHE_COMPILE_HELPER", None)
        out = pathlib.Path(cache) / "run.parquet"
        proc = subprocess.Popen(
            [sys.executable, "-m", "simcoinche", "simulate", "-n", "1000", "--out",
             str(out), "--no-progress"], cwd=tree, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
            start_new_session=True)
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        last = err.strip().splitlines()[-1] if err.strip() else ""
        print(delay, proc.returncode, "Traceback" in err, last[:100], flush=True)
        if proc.returncode != 130:
            print(err[-3000:], flush=True)


if __name__ == "__main__":
    main(sys.argv[1], [float(x) for x in sys.argv[2].split(",")])
