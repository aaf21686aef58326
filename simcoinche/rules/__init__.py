"""The rules layer: what a donne *is*, readable and exact.

Holds the card encoding and parsing (:mod:`.cards`), the auction's action codes and
tokens (:mod:`.actions`), the rule profiles packed for the kernels (:mod:`.profiles`),
the slow pure-Python reference engine that is the oracle of the kernels
(:mod:`.reference`, :mod:`.reference_dd`), the replay and check of a recorded donne
(:mod:`.verify`) and the one-line user error (:mod:`.errors`).

May import: :mod:`simcoinche._kernels` (the profile layout and rule tables the packed
profile is written in), :mod:`simcoinche._version`. Nothing above.
"""
