"""Named deals of the double-dummy tests (hands by seat 0..3), shared by
``test_dd_api``, ``test_dd_simulation`` and ``test_advise``."""

# Team 0 (seats 0 and 2) holds every ace, ten, king and queen; seat 0 leads (dealer 3).
HONOURS_TO_TEAM_0 = ["AS TS KS QS AH TH KH QH", "7S 8S 9S JS 7H 8H 9H JH",
                     "AD TD KD QD AC TC KC QC", "7D 8D 9D JD 7C 8C 9C JC"]

# Strict's tout-atout (248 card points, 258 with the last trick), dealer 1: team 0 could
# force every trick (252), but its DD value is 254 (258 in all): it leaves team 1 a trick
# of 4. No seat alone can win every trick.
ABOVE_252_AT_STRICT_TA = ["TS JH KH 8D 9D 9C TC JC", "7S AS 8H QH 7D 8C QC AC",
                          "8S 9S JS TD JD QD KD 7C", "QS KS 7H 9H TH AH AD KC"]

# Strict's tout-atout, dealer 3: seat 0 alone can win every trick, yet team 0's DD value
# is 254 without a sweep.
GENERALE_OFF_THE_LINE_STRICT_TA = ["JS 9S AS 8S JH 9H JD 9D", "QS KS KH AH TD 8C 9C AC",
                                   "TS 8D QD KD AD TC JC QC", "7S 7H 8H TH QH 7D 7C KC"]
