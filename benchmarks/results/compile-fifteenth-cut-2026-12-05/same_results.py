# ruff: noqa  (an ad hoc check, kept as it was run: PYTHONPATH=<tree> python same_results.py)
import hashlib, re
from simcoinche import odds, advise
def h(x):
    s = re.sub(r"seconds=[0-9.e+-]+", "", repr(x))
    return hashlib.sha1(s.encode()).hexdigest()[:16]
print(h(odds("JH 9H AH TH KS 7C 8D AD", samples=20000, seed=5, threads=2, progress=False)))
print(h(odds("JH 9H AH TH KS 7C 8D AD", samples=20000, seed=5, threads=1, progress=False)))
print(h(advise("JH 9H AH TH KS 7C 8D AD", auction="80S", samples=300, seed=2, threads=2, progress=False)))
