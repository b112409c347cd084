"""The translations: every catalog complete (the hub's answers in each language are tested
in tests/hub, the screens in tests/web)."""
