"""Private numba kernels.

Every kernel takes numpy arrays and scalars only, reads the rule profile from the packed
``int32`` array built by :meth:`simcoinche.profiles.Profile.pack` (layout in
:mod:`simcoinche._kernels.layout`), never from module globals, and allocates nothing per
card played. Bit layout of hands: see :mod:`simcoinche.cards`.
"""
