"""The command line as real processes: records, scores, ``reader flash``, ``service``, and
the install: ``scripts/install-deps`` and the wheel."""
