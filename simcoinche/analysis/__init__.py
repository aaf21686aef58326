"""The analysis layer: questions answered from runs.

Holds the hand features (:mod:`.features`), success rates and intervals
(:mod:`.stats`), plots (:mod:`.plots`), the report of a run or of parties
(:mod:`.report`), the odds of a hand (:mod:`.hand_odds`) and of a hand given the auction
(:mod:`.conditioned`), the advice of an action (:mod:`.advisor`) and the double-dummy
facade (:mod:`.dd`).

May import: :mod:`simcoinche.runs`, :mod:`simcoinche.players`, :mod:`simcoinche.rules`,
:mod:`simcoinche._kernels`. Nothing above (no command).
"""

#: Default limit on the deals drawn to reach the requested number of kept deals
#: (:mod:`.conditioned`; here so that the command line reads it without loading them).
MAX_DRAWS = 50_000_000
