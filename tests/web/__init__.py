"""The dashboard in a real browser (Debian's Chromium driven by Playwright), against a real
hub process and virtual bag readers; and ``bench/taps.py``'s driver."""
