"""Layout of the packed profile array (``int32``), shared by kernels and the facade.

These are layout offsets (compile-time constants), not rule values: kernels read every
rule value from the array passed to them, so one compiled kernel serves every profile.
"""

# --- deal -----------------------------------------------------------------------------
P_DEAL_ROUND_1 = 0        # cards given to each player in the first round (3)
P_DEAL_ROUND_2 = 1        # ... second round (2)
P_DEAL_ROUND_3 = 2        # ... third round (3); 0 when there are only two rounds
P_AUCTION_CARDS = 3       # cards held during the auction (8; 6 in stephanoise)
P_CUT_MIN = 4             # fewest cards left in each packet by the cut (3 federal)
# --- auction --------------------------------------------------------------------------
P_N_BID_VALUES = 5        # number of numeric bid values in the ladder
P_CAPOT_VALUE = 6         # value of a capot bid (250)
P_GENERALE_VALUE = 7      # value of a générale bid; 0 = no générale in this profile
P_ALLOW_SA = 8            # 1 if sans-atout contracts exist
P_ALLOW_TA = 9            # 1 if tout-atout contracts exist
P_COINCHE_ENDS_AUCTION = 10  # 1: a coinche ends the auction at once (classic)
P_ALLOW_SURCOINCHE = 11   # 1: the bidding team may surcoinche
P_ALLOW_DECOINCHE = 12    # 1: the coinched bidder's partner may outbid (stephanoise)
P_NO_COINCHE_80 = 13      # 1: an 80 cannot be coinched (classic option)
# --- play -----------------------------------------------------------------------------
P_MUST_UNDERTRUMP = 14    # 1: holding trumps over an unbeatable opponent trump, must trump
P_MUST_TRUMP_OVER_PARTNER = 15  # 1: void in the led suit, must trump even if partner wins
P_LAST_TRICK_BONUS = 16   # "dix de der" (10)
P_CAPOT_CARD_POINTS = 17  # card points of a team that wins all 8 tricks (252 federal)
# --- announcements --------------------------------------------------------------------
P_ANNOUNCEMENTS = 18      # 0 none; 1 federal (a card serves once); 2 shared cards (stephanoise)
P_BELOTE_POINTS = 19      # belote value (20); 0 = no belote
P_CAPOT_TRANSFERS_ANNOUNCEMENTS = 20  # 1: takers winning all tricks take the defence's
# --- scoring --------------------------------------------------------------------------
P_SUCCESS_RULE = 21       # 0 federal: T_t >= bid and T_t > T_d; 1: T_t >= bid (others)
P_SCORING_RULE = 22       # 0 federal, 1 classic, 2 stephanoise, 3 strict formulas
P_FAILED_BASE = 23        # points the defence gets for a failed contract (160)
P_SA_MULTIPLIER = 24      # contract multiplier at sans-atout (1; 2 in stephanoise)
P_ROUNDING = 25           # 1: marks rounded to the nearest ten, halves up; 0: none
P_ANNUL_MAX_POINTS = 26   # hand annulment threshold (classic 10); -1 = off
# --- partie ---------------------------------------------------------------------------
P_TARGET = 27             # points to win a partie (2000)
P_PARTIE_RULE = 28        # 0 federal: belote-only crossing must win a later trick;
#                          1 stephanoise: crossing while capot waits one more donne
# --- tables ---------------------------------------------------------------------------
P_BID_VALUES = 32         # numeric bid ladder, P_N_BID_VALUES entries (at most 24)
MAX_BID_VALUES = 24
P_TRUMP_POINTS = 56       # 8 entries by rank: points of trump cards in a suit contract
P_PLAIN_POINTS = 64       # 8: points of non-trump cards in a suit contract
P_SA_POINTS = 72          # 8: points of every card at sans-atout
P_TA_POINTS = 80          # 8: points of every card at tout-atout
P_CARRE_POINTS = 88       # 8: carré value by rank at a suit (or TA) contract; 0 = none
P_CARRE_POINTS_SA = 96    # 8: carré value by rank at sans-atout
P_SUITE_POINTS = 104      # 9: suite value by run length 0..8 (federal: 3→20, 4→50, 5+→100)
# --- added with the classic, stephanoise and strict profiles --------------------------
P_GENERALE_CARD_POINTS = 113  # card points of takers who make a générale bid (classic
#                              500); 0 = no substitution (their card points as counted)
P_FIRST_BID_NEEDS = 114   # points the takers need when the contract is the lowest ladder
#                          value (classic: 82 at 80); 0 = the bid value itself
P_LITIGE_POINTS = 115     # classic 81: both teams exactly this at the lowest ladder value
#                          → litige, nobody scores; 0 = no litige
P_ANN_COMPARE = 116       # announcement comparison: 0 federal (category, top card, trump);
#                          1 stephanoise (value, then the one in trumps; equal plain cancel)
P_SHOW_AFTER_CARD = 117   # announcements are shown once this many cards are played (5)
P_SHOW_AFTER_CARD_SA = 118  # ... at sans-atout (stephanoise 9, else 5)
PROFILE_LEN = 119

# --- values of the rule selectors (compile-time enums, not rule values) ---------------
SUCCESS_FEDERAL = 0       # "Made iff T_t ≥ bid and T_t > T_d"
SUCCESS_REACH_BID = 1     # "Made iff ... ≥ bid" (classic, stephanoise, strict)
SCORING_FEDERAL = 0
SCORING_CLASSIC = 1
SCORING_STEPHANOISE = 2
SCORING_STRICT = 3
PARTIE_FEDERAL = 0
PARTIE_STEPHANOISE = 1
ANN_COMPARE_FEDERAL = 0
ANN_COMPARE_VALUE = 1

# --- rows of play_contracts' output (int32[PC_LEN, n]) ----------------------------------
PC_TRICKS = 0           # 2 rows: tricks per team
PC_CARD_POINTS = 2      # 2 rows: card points per team, last trick / capot included
PC_ANNOUNCE = 4         # 2 rows: announcements after comparison and capot transfer
PC_BELOTE = 6           # 2 rows: belote per team
PC_MADE = 8             # 1 if the contract is made
PC_MARKS = 9            # 2 rows: marks per team
PC_TOTAL_TAKERS = 11    # T_t before rounding
PC_TOTAL_DEFENCE = 12   # T_d before rounding
PC_LITIGE = 13          # 1 for a litige (classic 81-81 at 80)
PC_TAKER_TRICKS = 14    # tricks won by the bidder himself (decides a générale)
PC_FAULTS = 15          # decisions of the players replaced by the kernel (F_* word)
PC_LEN = 16

# --- replaced decisions (the F_* word of a donne, one per row of every run) --------------
# A player kernel must answer a legal call and a legal card. When one does not, the
# kernel finishes the donne safely (a pass, the lowest legal card) and records it in the
# donne's word: ``F_CARD << seat`` (an illegal card of that seat), ``F_CALL << seat`` (an
# illegal call), plus ``F_ONE`` per decision replaced. Every facade turns a non-zero word
# into an error (:mod:`simcoinche.players.faults`).
F_CARD = 1              # bits 0..3: a card of seat s was replaced
F_CALL = 16             # bits 4..7: a call of seat s was replaced
F_ONE = 256             # bits 8..: the number of decisions replaced
