"""Rule tables common to every profile, as literal arrays.

Indexed by rank index ``7 8 9 T J Q K A`` (see :mod:`simcoinche.rules.cards`).
Strengths: higher wins. Profile-dependent point tables live in the packed profile.
"""

import numpy as np

#                          7  8  9  T  J  Q  K  A
# trump order (high→low): J 9 A T K Q 8 7
TRUMP_STRENGTH = np.array([0, 1, 6, 4, 7, 2, 3, 5], dtype=np.int32)
# plain order (high→low): A T K Q J 9 8 7
PLAIN_STRENGTH = np.array([0, 1, 2, 6, 3, 4, 5, 7], dtype=np.int32)

# Point tables used by the profiles (RULES.md "Orders and points").
#                        7  8   9   T   J  Q  K   A
TRUMP_POINTS = np.array([0, 0, 14, 10, 20, 3, 4, 11], dtype=np.int32)
PLAIN_POINTS = np.array([0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int32)
