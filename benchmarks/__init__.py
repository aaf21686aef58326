"""simcoinche benchmarks: ``make bench`` (``python -m benchmarks.run``)."""
