"""The games the companion follows."""
